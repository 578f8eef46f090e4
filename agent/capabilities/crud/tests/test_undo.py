"""Undo of the assistant's task updates: restores exactly, refuses when a task changed since, owner only,
single use, expires, constant SQL for a bulk change, documented in the schema."""
from __future__ import annotations

import json
from datetime import date, timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from agent.models import Run
from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.revert import RevertRefused, task_changes_revert
from tasks.services import task_create, task_update
from tests.helpers import api_client, confirm, make_tasks, post_request, visible_page

pytestmark = pytest.mark.django_db


def undo(user: User, run_id: str) -> Any:
    return api_client(user).post(f"/api/assistant/runs/{run_id}/undo/", {}, format="json")


def row_page(task: Task) -> dict[str, Any]:
    return {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}


@pytest.fixture
def started(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Write the launch post", status="in_progress",
                       progress=40, assignee=alice, due_date=date(2026, 12, 20))


def mark_done(user: User, task: Task) -> dict[str, Any]:
    body = post_request(user, row_page(task), action="mark_done")
    assert body["status"] == "done", body
    return body


def test_mark_done_offers_undo_for_the_window_and_undo_restores_exactly(alice: User, started: Task,
                                                                        settings: Any) -> None:
    settings.UNDO_WINDOW_SECONDS = 600
    body = mark_done(alice, started)
    until = timezone.datetime.fromisoformat(body["undo_until"])
    assert timedelta(seconds=590) < until - timezone.now() <= timedelta(seconds=600)
    started.refresh_from_db()
    assert (started.status, started.progress) == ("done", 100) and started.completed_at is not None
    assert TaskActivity.objects.filter(run_id=body["run_id"]).count() == 2  # status and progress

    response = undo(alice, body["run_id"])
    assert response.status_code == 200, response.content
    assert response.json()["undone_at"] is not None and response.json()["data"]["undo"]["restored"] == 1
    trace = api_client(alice).get(f"/api/assistant/runs/{body['run_id']}/trace/").json()
    assert [n["restored"] for n in trace["nodes"] if n["name"] == "undo"] == [1]
    started.refresh_from_db()
    assert (started.status, started.progress, started.completed_at) == ("in_progress", 40, None)
    # The undo is history too: the log says who put the values back.
    back = TaskActivity.objects.filter(task=started, run_id__isnull=True, actor=alice).order_by("-id")[:2]
    assert {(a.field, a.from_value, a.to_value) for a in back} == {("status", "done", "in_progress"),
                                                                   ("progress", "100", "40")}


def test_a_second_undo_is_refused(alice: User, started: Task) -> None:
    body = mark_done(alice, started)
    assert undo(alice, body["run_id"]).status_code == 200
    task_update(actor=alice, task=started, status="blocked")
    again = undo(alice, body["run_id"])
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_undone"
    started.refresh_from_db()
    assert started.status == "blocked"


def test_only_the_owner_can_undo(alice: User, carol: User, bob: User, started: Task) -> None:
    body = mark_done(alice, started)
    for other in (carol, bob):  # a member of the project and a stranger alike
        response = undo(other, body["run_id"])
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found" and "run_id" in response.json()["error"]["fields"]
    assert undo(None, body["run_id"]).status_code == 401  # type: ignore[arg-type]
    started.refresh_from_db()
    assert started.status == "done"
    assert undo(alice, body["run_id"]).status_code == 200


def test_undo_is_refused_with_what_changed_when_the_task_changed_since(alice: User, carol: User,
                                                                       started: Task) -> None:
    body = mark_done(alice, started)
    task_update(actor=carol, task=started, progress=90)
    response = undo(alice, body["run_id"])
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "changed_since"
    assert started.key in error["message"] and "progress" in error["message"] and "carol" in error["message"]
    started.refresh_from_db()
    # Nothing restored, not even the status nobody touched; the undo is still unused.
    assert (started.status, started.progress) == ("done", 90)
    assert Run.objects.get(pk=body["run_id"]).undone_at is None


def test_a_change_back_and_forth_since_still_counts_as_a_change(alice: User, started: Task) -> None:
    body = mark_done(alice, started)
    task_update(actor=alice, task=started, status="todo")
    task_update(actor=alice, task=started, status="done")
    response = undo(alice, body["run_id"])
    assert response.status_code == 409 and "status" in response.json()["error"]["message"]


def test_undo_expires(alice: User, started: Task, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.UNDO_WINDOW_SECONDS = 600
    body = mark_done(alice, started)
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=601))
    response = undo(alice, body["run_id"])
    assert response.status_code == 410
    assert response.json()["error"]["code"] == "undo_expired" and "Too late" in response.json()["error"]["message"]
    started.refresh_from_db()
    assert started.status == "done"
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=590))
    assert undo(alice, body["run_id"]).status_code == 200


def test_deletes_and_reads_offer_no_undo(alice: User, started: Task) -> None:
    deleting = post_request(alice, row_page(started), action="delete_task")
    approved = confirm(alice, deleting["run_id"])
    assert approved["status"] == "done" and approved["undo_until"] is None
    response = undo(alice, deleting["run_id"])
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_undoable"
    reading = post_request(alice, {"page": "home", "origin": "workbench"}, action="my_overdue")
    assert reading["undo_until"] is None and undo(alice, reading["run_id"]).status_code == 409


def test_undo_body_must_be_empty(alice: User, started: Task) -> None:
    body = mark_done(alice, started)
    response = api_client(alice).post(f"/api/assistant/runs/{body['run_id']}/undo/", {"force": True}, format="json")
    assert response.status_code == 400 and "force" in response.json()["error"]["fields"]


def bulk_done_and_undo(alice: User, website: Project, count: int) -> tuple[list[Task], int]:
    tasks = make_tasks(alice, website, count, prefix=f"Batch{count}", status="in_progress", progress=30)
    body = post_request(alice, visible_page(tasks), action="mark_visible_done")
    if body["status"] == "needs_confirmation":
        body = confirm(alice, body["run_id"])
    assert body["data"]["count"] == count and body["undo_until"]
    with CaptureQueriesContext(connection) as queries:
        response = undo(alice, body["run_id"])
    assert response.status_code == 200, response.content
    return tasks, len(queries)


def test_bulk_undo_restores_every_task_in_constant_sql(alice: User, website: Project) -> None:
    few, few_queries = bulk_done_and_undo(alice, website, 3)
    many, many_queries = bulk_done_and_undo(alice, website, 20)
    assert few_queries == many_queries
    for task in Task.objects.filter(pk__in=[t.pk for t in few + many]):
        assert (task.status, task.progress, task.completed_at) == ("in_progress", 30, None)


def test_revert_restores_priority_due_date_and_assignee(alice: User, carol: User, dave: User,
                                                        website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Fix the footer", priority="P2", assignee=carol,
                       due_date=date(2026, 12, 1))
    run = Run.objects.create(user=alice, page_context={})
    task_update(actor=alice, task=task, priority="P0", due_date=date(2026, 12, 9), assignee=dave, run_id=run.pk)
    task_update(actor=alice, task=task, due_date=None, run_id=run.pk)  # one run, one field twice
    task_changes_revert(actor=alice, run_id=run.pk)
    task.refresh_from_db()
    assert (task.priority, task.due_date, task.assignee) == ("P2", date(2026, 12, 1), carol)


def test_revert_refuses_a_task_deleted_since(alice: User, website: Project) -> None:
    from tasks.services import task_delete
    keep, gone = make_tasks(alice, website, 2)
    run = Run.objects.create(user=alice, page_context={})
    for task in (keep, gone):
        task_update(actor=alice, task=task, status="done", run_id=run.pk)
    task_delete(actor=alice, task=gone)
    with pytest.raises(RevertRefused, match="deleted since"):
        task_changes_revert(actor=alice, run_id=run.pk)
    keep.refresh_from_db()
    assert keep.status == "done"


def test_the_schema_documents_undo(tmp_path: Path) -> None:
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(target), stdout=StringIO())
    schema = target.read_text()
    assert "/api/assistant/runs/{run_id}/undo/:" in schema
    assert "undo_expired" in schema and "'410':" in schema and "undo_until" in schema


# --- the sidebar's Undo button: the same service, rendered as the run's partial ---------------------

def sidebar(user: User) -> Any:
    from django.test import Client
    client = Client()
    client.force_login(user)
    return client


def test_the_sidebar_offers_undo_and_undoes_through_the_same_service(alice: User, started: Task) -> None:
    client = sidebar(alice)
    page = json.dumps({"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": started.pk}})
    html = client.post("/assistant/request/", {"action": "mark_done", "page_context": page}).content.decode()
    run_id = Run.objects.get(user=alice, action="mark_done").pk
    assert f'hx-post="/assistant/runs/{run_id}/undo/"' in html and ">Undo</button>" in html
    # A reload renders the conversation with the button still there.
    assert f'hx-post="/assistant/runs/{run_id}/undo/"' in client.get("/tasks/").content.decode()
    undone = client.post(f"/assistant/runs/{run_id}/undo/")
    assert undone.status_code == 200 and "tasks-changed" in undone["HX-Trigger"]
    text = undone.content.decode()
    assert "Undone: the previous values of 1 task are back." in text and ">Undo</button>" not in text
    started.refresh_from_db()
    assert started.status == "in_progress"
    again = client.post(f"/assistant/runs/{run_id}/undo/")
    assert again.status_code == 409 and "already undone" in again.content.decode()


def test_the_sidebar_shows_why_an_undo_was_refused(alice: User, carol: User, started: Task) -> None:
    body = mark_done(alice, started)
    task_update(actor=carol, task=started, status="blocked")
    response = sidebar(alice).post(f"/assistant/runs/{body['run_id']}/undo/")
    assert response.status_code == 409
    text = response.content.decode()
    assert 'class="run-undo-refused" role="alert"' in text and "Nothing was restored" in text and started.key in text
    assert "data-undo" not in text, "trying again would be refused again: the button goes"
    assert sidebar(carol).post(f"/assistant/runs/{body['run_id']}/undo/").status_code == 404


@pytest.mark.parametrize("body", [[], "x", None])
def test_undo_refuses_a_body_that_is_not_an_object_or_empty(alice: User, started: Task, body: Any) -> None:
    run_id = mark_done(alice, started)["run_id"]
    client = api_client(alice)
    if body is None:
        response = client.post(f"/api/assistant/runs/{run_id}/undo/")  # no body at all is fine
        assert response.status_code == 200
        return
    response = client.post(f"/api/assistant/runs/{run_id}/undo/", body, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
    started.refresh_from_db()
    assert started.status == "done"


def test_undo_of_an_unknown_or_malformed_run_id_is_not_found(alice: User) -> None:
    response = undo(alice, "00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert api_client(alice).post("/api/assistant/runs/not-a-uuid/undo/", {}, format="json").status_code == 404


def test_an_update_that_changes_nothing_offers_no_undo(alice: User, started: Task) -> None:
    mark_done(alice, started)
    again = mark_done(alice, started)  # already done: nothing to change, nothing to undo
    assert again["undo_until"] is None
    assert not TaskActivity.objects.filter(run_id=again["run_id"]).exists()
    assert undo(alice, again["run_id"]).status_code == 409
