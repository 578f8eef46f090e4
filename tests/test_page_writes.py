"""Writes from the pages: task create, in-place edits and board moves go through the services."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.timeline import timeline_for
from tests.page_html import HTMX, client_for, ctx_json, make_page_tasks, page_context, row_ids, tags


@pytest.fixture
def tasks(website: Project, mobile: Project, platform: Project, alice: User, bob: User, carol: User) -> dict[str, Task]:
    return make_page_tasks(website=website, mobile=mobile, platform=platform, alice=alice, bob=bob, carol=carol)


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
    # In words on the form, at its field (the API's "due_date: " prefix is for API clients).
    assert dates.status_code == 400 and "Must not be before the start date." in html and "due_date:" not in html
    assert html.index("Must not be before the start date.") > html.index('name="due_date"')
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
    assert {"field-status", "field-progress", "field-title", "field-updated", "activity", "page-context"} <= oob_ids
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
    assert due.status_code == 400 and "Must not be before the start date." in due.content.decode()
    # Editing the start date past the due date: the refusal is above the form, naming the other field.
    start = client.post(reverse("task-field", args=[task.pk, "start_date"]),
                        {"start_date": (task.due_date + timedelta(days=1)).isoformat()}, headers=HTMX)
    assert start.status_code == 400 and "Due date: must not be before the start date." in start.content.decode()
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
    summary = next(a for _, a in found if a.get("id") == "project-summary")
    assert summary["hx-swap-oob"] == "true"


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


@pytest.mark.parametrize("via", ["board", "field"])
def test_a_page_write_to_a_task_deleted_meanwhile_is_a_404_toast(
        via: str, carol: User, tasks: dict[str, Task], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another request deletes the task between the page's read and its write: a 404, not a 500."""
    from tasks import project_views
    from tasks import views as task_views

    module = project_views if via == "board" else task_views
    real = module.task_update

    def deleted_first(**kwargs: object) -> Task:
        Task.objects.filter(pk=kwargs["task"].pk).delete()  # type: ignore[attr-defined]
        return real(**kwargs)

    monkeypatch.setattr(module, "task_update", deleted_first)
    task = tasks["design"]
    url = (reverse("project-board-status", args=[task.project_id, task.pk]) if via == "board"
           else reverse("task-field", args=[task.pk, "status"]))
    response = client_for(carol).post(url, {"status": "done", "tab": "overview"}, headers=HTMX)
    assert response.status_code == 404
    assert response["HX-Retarget"] == "#toasts" and "was not found" in response.content.decode()
