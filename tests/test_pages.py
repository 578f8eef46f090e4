"""The pages: access for owners, members, viewers and outsiders, the page-context markup, filters."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.page_html import HTMX, client_for, ctx_json, make_page_tasks, page_context, row_ids, tags


@pytest.fixture
def tasks(website: Project, mobile: Project, platform: Project, alice: User, bob: User, carol: User) -> dict[str, Task]:
    return make_page_tasks(website=website, mobile=mobile, platform=platform, alice=alice, bob=bob, carol=carol)


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


def test_viewer_is_not_offered_the_assistant_buttons_that_change_tasks(
        dave: User, carol: User, tasks: dict[str, Task]) -> None:
    task = tasks["design"]
    for who, offered in ((dave, False), (carol, True)):
        detail = client_for(who).get(reverse("task-detail", args=[task.pk])).content.decode()
        for action in ("mark_done", "decompose_task", "delete_task"):
            assert (f'data-assistant-action="{action}"' in detail) is offered, (who, action)
    # The New task form lists only the projects the user may add tasks to.
    form = client_for(dave).get(reverse("task-create")).content.decode()
    assert f'<option value="{task.project_id}"' not in form
    assert f'<option value="{task.project_id}"' in client_for(carol).get(reverse("task-create")).content.decode()


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
        # archcheck: allow ARCH005 the query above
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
    # archcheck: allow ARCH005 the query above
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
    assert attrs["data-page"] == "task_detail"
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
