"""The server-rendered pages: access, the page-context markup, filters, and writes through the services."""
from __future__ import annotations

import json
from datetime import date, timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from projects.models import Project
from projects.timeline import timeline_for
from tasks.models import Task, TaskActivity
from tasks.services import task_create

HTMX = {"HX-Request": "true"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def page_context(response: Any) -> dict[str, str | None]:
    """Return the attributes of the one #page-context element of a page."""
    found = [attrs for _, attrs in tags(response.content.decode()) if attrs.get("id") == "page-context"]
    assert len(found) == 1, f"expected one #page-context, found {len(found)}"
    return found[0]


def ctx_json(response: Any, name: str) -> Any:
    return json.loads(page_context(response)[name] or "null")


def row_ids(response: Any) -> list[int]:
    """Return the task ids of the task entries (table rows, cards, bars) in page order."""
    return [int(a["data-entity-id"] or 0) for _, a in tags(response.content.decode())
            if a.get("data-origin") == "task_row"]


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def tasks(website: Project, mobile: Project, platform: Project, alice: User, bob: User, carol: User) -> dict[str, Task]:
    today = timezone.localdate()
    return {
        "design": task_create(actor=alice, project=website, title="Design homepage", assignee=alice,
                              priority="P1", start_date=today - timedelta(days=3), due_date=today + timedelta(days=4),
                              labels=["design"]),
        "late": task_create(actor=alice, project=website, title="Fix login bug", assignee=carol, status="in_progress",
                            priority="P0", due_date=today - timedelta(days=2)),
        "done": task_create(actor=alice, project=website, title="Write copy", status="done"),
        "app": task_create(actor=alice, project=mobile, title="Offline sync", assignee=alice, priority="P2",
                           due_date=today + timedelta(days=1)),
        "secret": task_create(actor=bob, project=platform, title="Nightly ETL", assignee=carol),
    }


# ---- access ---------------------------------------------------------------------------------

def test_login_page_renders_and_pages_need_login(client: Client, tasks: dict[str, Task]) -> None:
    response = client.get(reverse("login"))
    assert response.status_code == 200
    names = {attrs.get("name") for _, attrs in tags(response.content.decode())}
    assert {"username", "password", "csrfmiddlewaretoken"} <= names
    for url in (reverse("home"), reverse("task-list"), reverse("project-list"),
                reverse("project-detail", args=[tasks["design"].project_id]),
                reverse("task-detail", args=[tasks["design"].pk]), reverse("task-create")):
        answer = client.get(url)
        assert answer.status_code == 302 and answer["Location"].startswith(reverse("login")), url


def test_login_form_logs_in(client: Client, alice: User) -> None:
    response = client.post(reverse("login"), {"username": "alice", "password": "demo"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.get(reverse("home")).status_code == 200


@pytest.mark.parametrize("who", ["alice", "carol", "dave"])
def test_every_page_renders_for_owner_member_and_viewer(who: str, request: pytest.FixtureRequest,
                                                        tasks: dict[str, Task]) -> None:
    client = client_for(request.getfixturevalue(who))
    project_id, task_id = tasks["design"].project_id, tasks["design"].pk
    urls = [reverse("home"), reverse("project-list"), reverse("task-list"), reverse("task-detail", args=[task_id])]
    urls += [f"{reverse('project-detail', args=[project_id])}?view={v}" for v in ("list", "board", "gantt")]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert b'<aside id="assistant" class="assistant"' in response.content
        page_context(response)  # exactly one element
    create = client.get(f"{reverse('task-create')}?project={project_id}")
    assert create.status_code == (403 if who == "dave" else 200)


def test_viewer_sees_no_edit_controls(dave: User, carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    viewer_detail = client_for(dave).get(reverse("task-detail", args=[task.pk])).content.decode()
    member_detail = client_for(carol).get(reverse("task-detail", args=[task.pk])).content.decode()
    field_url = reverse("task-field", args=[task.pk, "status"])
    assert field_url in member_detail and field_url not in viewer_detail
    board = f"{reverse('project-detail', args=[task.project_id])}?view=board"
    assert b'name="status"' not in client_for(dave).get(board).content
    assert b'name="status"' in client_for(carol).get(board).content


def test_non_member_gets_404_for_other_projects_pages(alice: User, tasks: dict[str, Task]) -> None:
    client = client_for(alice)
    secret = tasks["secret"]
    assert client.get(reverse("project-detail", args=[secret.project_id])).status_code == 404
    assert client.get(reverse("task-detail", args=[secret.pk])).status_code == 404
    assert client.get(reverse("task-field", args=[secret.pk, "status"]), headers=HTMX).status_code == 404
    assert client.get(f"{reverse('task-create')}?project={secret.project_id}").status_code == 404
    status_url = reverse("project-board-status", args=[secret.project_id, secret.pk])
    assert client.post(status_url, {"status": "done"}, headers=HTMX).status_code == 404
    assert client.post(reverse("task-field", args=[secret.pk, "title"]), {"title": "x"}).status_code == 404
    secret.refresh_from_db()
    assert secret.status == "todo" and secret.title == "Nightly ETL"
    listing = client.get(reverse("task-list"))
    assert secret.pk not in row_ids(listing)


# ---- page context -----------------------------------------------------------------------------

def test_home_page_context_and_workbench(alice: User, tasks: dict[str, Task]) -> None:
    response = client_for(alice).get(reverse("home"))
    attrs = page_context(response)
    assert attrs["data-page"] == "home"
    assert "data-active-tab" not in attrs and "data-view-mode" not in attrs and "data-selected-entity" not in attrs
    assert "data-search-keyword" not in attrs
    assert ctx_json(response, "data-route-params") == {}
    assert ctx_json(response, "data-filters") == {}
    assert ctx_json(response, "data-visible-entity-ids") == []
    assert ctx_json(response, "data-pagination") == {}
    html = response.content.decode()
    assert html.count('data-origin="workbench"') >= 4
    assert "Design homepage" in html and "Offline sync" in html and "Nightly ETL" not in html


@pytest.mark.parametrize("view", ["list", "board"])
def test_project_detail_page_context(view: str, alice: User, tasks: dict[str, Task]) -> None:
    project_id = tasks["design"].project_id
    response = client_for(alice).get(f"{reverse('project-detail', args=[project_id])}?tab=overview&view={view}")
    attrs = page_context(response)
    assert attrs["data-page"] == "project_detail"
    assert attrs["data-active-tab"] == "overview" and attrs["data-view-mode"] == view
    assert ctx_json(response, "data-selected-entity") == {"type": "project", "id": project_id}
    assert ctx_json(response, "data-route-params") == {"projectId": project_id}
    shown = row_ids(response)
    assert sorted(shown) == sorted(t.pk for t in (tasks["design"], tasks["late"], tasks["done"]))
    assert ctx_json(response, "data-visible-entity-ids") == shown


def test_project_tabs_filter_the_tasks_and_gantt_lists_the_bars(alice: User, tasks: dict[str, Task]) -> None:
    url = reverse("project-detail", args=[tasks["design"].project_id])
    client = client_for(alice)
    in_progress = client.get(f"{url}?tab=in_progress")
    assert row_ids(in_progress) == [tasks["late"].pk]
    assert page_context(in_progress)["data-active-tab"] == "in_progress"
    done = client.get(f"{url}?tab=done&view=board")
    assert row_ids(done) == [tasks["done"].pk]
    gantt = client.get(f"{url}?view=gantt")
    bars = row_ids(gantt)
    # Only dated tasks get a bar; the undated one is listed apart.
    assert sorted(bars) == sorted([tasks["design"].pk, tasks["late"].pk])
    assert ctx_json(gantt, "data-visible-entity-ids") == bars
    assert "Write copy" in gantt.content.decode()


def test_project_detail_unknown_tab_is_named_not_ignored(alice: User, tasks: dict[str, Task]) -> None:
    url = reverse("project-detail", args=[tasks["design"].project_id])
    response = client_for(alice).get(f"{url}?tab=archive&view=calendar")
    assert response.status_code == 400
    html = response.content.decode()
    assert "tab: &#x27;archive&#x27; is not one of overview, in_progress, done" in html
    assert "view: &#x27;calendar&#x27;" in html
    assert page_context(response)["data-active-tab"] == "overview"


def test_task_list_page_context_reflects_the_query_string(alice: User, tasks: dict[str, Task]) -> None:
    today = timezone.localdate()
    query = (f"?status=todo&status=in_progress&assignee=me&priority=P1&priority=P2"
             f"&due_before={today + timedelta(days=10)}&due_after={today}&labels=design&search=design")
    response = client_for(alice).get(reverse("task-list") + query)
    assert response.status_code == 200
    attrs = page_context(response)
    assert attrs["data-page"] == "task_list"
    assert attrs["data-search-keyword"] == "design"
    assert "data-active-tab" not in attrs and "data-selected-entity" not in attrs
    assert ctx_json(response, "data-filters") == {
        "status": ["todo", "in_progress"], "assignee": "me", "priority": ["P1", "P2"],
        "dueBefore": (today + timedelta(days=10)).isoformat(), "dueAfter": today.isoformat(), "labels": ["design"],
    }
    assert ctx_json(response, "data-pagination") == {"page": 1, "pageSize": 25}
    assert row_ids(response) == [tasks["design"].pk]
    assert ctx_json(response, "data-visible-entity-ids") == [tasks["design"].pk]
    assert ctx_json(response, "data-route-params") == {}


def test_task_list_project_filter_becomes_a_route_param(alice: User, tasks: dict[str, Task]) -> None:
    project_id = tasks["app"].project_id
    response = client_for(alice).get(f"{reverse('task-list')}?project={project_id}&status=todo,done")
    assert ctx_json(response, "data-route-params") == {"projectId": project_id}
    assert ctx_json(response, "data-filters") == {"status": ["todo", "done"]}
    assert row_ids(response) == [tasks["app"].pk]


def test_page_context_escapes_what_the_user_typed(alice: User, tasks: dict[str, Task]) -> None:
    keyword = 'say "hi" <b>&\' now'
    response = client_for(alice).get(reverse("task-list"), {"search": keyword})
    raw = response.content.decode()
    assert "<b>&" not in raw.split('id="page-context"')[1].split(">")[0]
    assert page_context(response)["data-search-keyword"] == keyword


def test_task_detail_page_context(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["late"]
    response = client_for(carol).get(reverse("task-detail", args=[task.pk]))
    attrs = page_context(response)
    assert attrs["data-page"] == "task_list"
    assert ctx_json(response, "data-selected-entity") == {"type": "task", "id": task.pk}
    assert ctx_json(response, "data-route-params") == {"taskId": task.pk, "projectId": task.project_id}
    assert "Fix login bug" in response.content.decode()


# ---- filters and pagination -----------------------------------------------------------------

@pytest.mark.parametrize(("query", "field"), [
    ("status=nope", "status"),
    ("priority=P9", "priority"),
    ("assignee=someone", "assignee"),
    ("due_before=2026-13-01", "due_before"),
    ("due_after=2026-02-01&due_before=2026-01-01", "due_after"),
    ("page=0", "page"),
    ("page_size=500", "page_size"),
    ("project=abc", "project"),
])
def test_invalid_filters_show_a_clear_message(query: str, field: str, alice: User, tasks: dict[str, Task]) -> None:
    response = client_for(alice).get(f"{reverse('task-list')}?{query}")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="filter-error"' in html and f"<code>{field}</code>" in html
    assert row_ids(response) == []
    assert ctx_json(response, "data-visible-entity-ids") == []
    assert ctx_json(response, "data-filters") == {}


def test_pagination_pages_through_the_tasks(alice: User, website: Project) -> None:
    for n in range(30):
        task_create(actor=alice, project=website, title=f"Task {n:02}", due_date=date(2030, 1, 1) + timedelta(days=n))
    client = client_for(alice)
    first = client.get(reverse("task-list"))
    second = client.get(reverse("task-list"), {"page": 2})
    assert len(row_ids(first)) == 25 and len(row_ids(second)) == 5
    assert not set(row_ids(first)) & set(row_ids(second))
    assert ctx_json(second, "data-pagination") == {"page": 2, "pageSize": 25}
    small = client.get(reverse("task-list"), {"page": 3, "page_size": 10})
    assert len(row_ids(small)) == 10 and ctx_json(small, "data-pagination") == {"page": 3, "pageSize": 10}
    beyond = client.get(reverse("task-list"), {"page": 9})
    assert beyond.status_code == 400 and "there is no page 9" in beyond.content.decode()
    assert ctx_json(beyond, "data-pagination") == {"page": 2, "pageSize": 25}


def test_htmx_filter_request_returns_results_and_a_fresh_page_context(alice: User, tasks: dict[str, Task]) -> None:
    response = client_for(alice).get(reverse("task-list"), {"status": "done", "search": "", "assignee": ""},
                                     headers={**HTMX, "HX-Target": "task-results"})
    assert response["HX-Push-Url"] == "/tasks/?status=done"
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="task-results"') and "<html" not in html
    attrs = page_context(response)
    assert attrs["hx-swap-oob"] == "true"
    assert ctx_json(response, "data-filters") == {"status": ["done"]}
    assert row_ids(response) == [tasks["done"].pk]


# ---- writes ---------------------------------------------------------------------------------

def test_task_create_writes_the_task_and_its_activity(carol: User, website: Project, alice: User) -> None:
    response = client_for(carol).post(reverse("task-create"), {
        "project": website.pk, "title": "Plan the launch", "status": "in_progress", "priority": "P1",
        "assignee": alice.pk, "progress": 10, "due_date": "2030-05-01", "labels": "launch, planning",
    })
    task = Task.objects.get(title="Plan the launch")
    assert response.status_code == 302 and response["Location"] == reverse("task-detail", args=[task.pk])
    assert (task.project, task.assignee, task.status, task.priority) == (website, alice, "in_progress", "P1")
    assert sorted(task.labels.values_list("name", flat=True)) == ["launch", "planning"]
    assert TaskActivity.objects.filter(task=task, kind="created", actor=carol).exists()


def test_task_create_shows_errors_next_to_fields_and_writes_nothing(carol: User, website: Project) -> None:
    client = client_for(carol)
    blank = client.post(reverse("task-create"), {"project": website.pk, "title": " ", "status": "todo",
                                                 "priority": "P2", "progress": 0})
    assert blank.status_code == 400 and "This field is required." in blank.content.decode()
    # A rule only the service knows: due before start.
    dates = client.post(reverse("task-create"), {"project": website.pk, "title": "Bad dates", "status": "todo",
                                                 "priority": "P2", "progress": 0, "start_date": "2030-05-10",
                                                 "due_date": "2030-05-01"})
    html = dates.content.decode()
    assert dates.status_code == 400 and "due_date: must not be before start_date." in html
    assert html.index("due_date: must not be before") > html.index('name="due_date"')
    assert not Task.objects.exists() and not TaskActivity.objects.exists()


def test_viewer_post_to_create_is_refused(dave: User, website: Project) -> None:
    response = client_for(dave).post(reverse("task-create"), {"project": website.pk, "title": "Sneaky",
                                                              "status": "todo", "priority": "P2", "progress": 0})
    assert response.status_code == 403
    assert "Viewers cannot change tasks in this project." in response.content.decode()
    assert not Task.objects.filter(title="Sneaky").exists()


def test_inline_edit_saves_through_the_service(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    client = client_for(carol)
    editor = client.get(reverse("task-field", args=[task.pk, "status"]), headers=HTMX)
    assert editor.status_code == 200 and b'<form id="field-status"' in editor.content
    response = client.post(reverse("task-field", args=[task.pk, "status"]), {"status": "done"}, headers=HTMX)
    assert response.status_code == 200
    task.refresh_from_db()
    assert task.status == "done" and task.progress == 100
    kinds = set(TaskActivity.objects.filter(task=task, actor=carol).values_list("kind", "to_value"))
    assert {("status", "done"), ("progress", "100")} <= kinds
    oob_ids = {a.get("id") for _, a in tags(response.content.decode()) if a.get("hx-swap-oob")}
    assert {"field-status", "field-progress", "field-title", "activity", "page-context"} <= oob_ids
    title = client.post(reverse("task-field", args=[task.pk, "title"]), {"title": "Design the homepage"}, headers=HTMX)
    assert title.status_code == 200 and "Design the homepage" in title.content.decode()


def test_inline_edit_errors_are_shown_and_nothing_is_written(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    assert task.start_date is not None
    before = TaskActivity.objects.count()
    client = client_for(carol)
    progress = client.post(reverse("task-field", args=[task.pk, "progress"]), {"progress": 150}, headers=HTMX)
    assert progress.status_code == 400 and progress["HX-Retarget"] == "#field-progress"
    assert "less than or equal to 100" in progress.content.decode()
    # The service rejects a due date before the start date; its message shows at the field.
    due = client.post(reverse("task-field", args=[task.pk, "due_date"]),
                      {"due_date": (task.start_date - timedelta(days=1)).isoformat()}, headers=HTMX)
    assert due.status_code == 400 and "due_date: must not be before start_date." in due.content.decode()
    outsider = client.post(reverse("task-field", args=[task.pk, "assignee"]), {"assignee": 999999}, headers=HTMX)
    assert outsider.status_code == 400
    task_after = Task.objects.get(pk=task.pk)
    assert (task_after.progress, task_after.due_date, task_after.assignee_id) == (
        task.progress, task.due_date, task.assignee_id)
    assert TaskActivity.objects.count() == before


def test_inline_edit_without_htmx_falls_back_to_full_pages(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    client = client_for(carol)
    page = client.get(f"{reverse('task-detail', args=[task.pk])}?edit=priority")
    assert b'<form id="field-priority"' in page.content
    response = client.post(reverse("task-field", args=[task.pk, "priority"]), {"priority": "P3"})
    assert response.status_code == 302
    assert Task.objects.get(pk=task.pk).priority == "P3"


def test_viewer_inline_edit_is_refused(dave: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    client = client_for(dave)
    assert client.get(reverse("task-field", args=[task.pk, "status"]), headers=HTMX).status_code == 403
    response = client.post(reverse("task-field", args=[task.pk, "status"]), {"status": "done"}, headers=HTMX)
    assert response.status_code == 403 and response["HX-Retarget"] == "#toasts"
    assert "Viewers cannot change tasks in this project." in response.content.decode()
    plain = client.post(reverse("task-field", args=[task.pk, "title"]), {"title": "Renamed"})
    assert plain.status_code == 403 and b"Viewers cannot change tasks" in plain.content
    task.refresh_from_db()
    assert task.status == "todo" and task.title == "Design homepage"
    assert not TaskActivity.objects.filter(actor=dave).exists()


def test_board_status_change_moves_the_card(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    url = reverse("project-board-status", args=[task.project_id, task.pk])
    response = client_for(carol).post(url, {"status": "blocked", "tab": "overview"}, headers=HTMX)
    assert response.status_code == 200
    task.refresh_from_db()
    assert task.status == "blocked"
    assert TaskActivity.objects.filter(task=task, kind="status", from_value="todo", to_value="blocked").exists()
    found = tags(response.content.decode())
    assert ("div", {"hx-swap-oob": "afterbegin:#board-cards-blocked"}) in found
    counts = {a["id"] for _, a in found if (a.get("id") or "").startswith("board-count-")}
    assert counts == {"board-count-todo", "board-count-in_progress", "board-count-blocked", "board-count-done"}
    assert row_ids(response) == [task.pk]
    assert page_context(response)["data-view-mode"] == "board"


def test_board_status_change_off_the_tab_removes_the_card(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["late"]
    url = reverse("project-board-status", args=[task.project_id, task.pk])
    response = client_for(carol).post(url, {"status": "done", "tab": "in_progress"}, headers=HTMX)
    assert response.status_code == 200 and row_ids(response) == []
    assert ctx_json(response, "data-visible-entity-ids") == []


def test_board_status_change_refusals_write_nothing(carol: User, dave: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    url = reverse("project-board-status", args=[task.project_id, task.pk])
    viewer = client_for(dave).post(url, {"status": "done"}, headers=HTMX)
    assert viewer.status_code == 403 and b"Viewers cannot change tasks" in viewer.content
    bad = client_for(carol).post(url, {"status": "shipped"}, headers=HTMX)
    assert bad.status_code == 400 and b"status: &#x27;shipped&#x27; is not one of" in bad.content
    wrong_project = reverse("project-board-status", args=[tasks["app"].project_id, task.pk])
    assert client_for(carol).post(wrong_project, {"status": "done"}).status_code == 404
    task.refresh_from_db()
    assert task.status == "todo"
    assert not TaskActivity.objects.filter(task=task, kind="status").exists()


def test_board_status_change_without_htmx_redirects_back_to_the_board(carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    url = reverse("project-board-status", args=[task.project_id, task.pk])
    response = client_for(carol).post(url, {"status": "in_progress", "tab": "overview"})
    assert response.status_code == 302 and response["Location"].endswith("?tab=overview&view=board")
    assert Task.objects.get(pk=task.pk).status == "in_progress"


def test_posts_need_a_csrf_token(carol: User, tasks: dict[str, Task]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(carol)
    task = tasks["design"]
    response = client.post(reverse("task-field", args=[task.pk, "status"]), {"status": "done"}, headers=HTMX)
    assert response.status_code == 403
    assert Task.objects.get(pk=task.pk).status == "todo"
    page = client.get(reverse("task-detail", args=[task.pk])).content.decode()
    body = next(a for t, a in tags(page) if t == "body")
    token = json.loads(body["hx-headers"] or "{}")["X-CSRFToken"]
    ok = client.post(reverse("task-field", args=[task.pk, "status"]), {"status": "done"},
                     headers={**HTMX, "X-CSRFToken": token})
    assert ok.status_code == 200 and Task.objects.get(pk=task.pk).status == "done"


# ---- timeline layout ------------------------------------------------------------------------

def test_timeline_places_bars_by_dates(website: Project) -> None:
    today = date(2030, 3, 10)
    spans = Task(pk=1, project=website, title="a", start_date=date(2030, 3, 1), due_date=date(2030, 3, 10))
    marker = Task(pk=2, project=website, title="b", due_date=date(2030, 3, 20))
    undated = Task(pk=3, project=website, title="c")
    timeline = timeline_for(tasks=[marker, spans, undated], today=today)
    assert timeline.start == date(2030, 2, 27) and timeline.unscheduled == [undated]
    first, second = timeline.bars
    assert first.task is spans and not first.milestone
    assert first.left == pytest.approx(100 * 2 / timeline.days)
    assert first.width == pytest.approx(100 * 10 / timeline.days)
    assert second.task is marker and second.milestone
    assert timeline.today_left is not None and 0 < timeline.today_left < 100
    assert timeline_for(tasks=[undated], today=today).bars == []
