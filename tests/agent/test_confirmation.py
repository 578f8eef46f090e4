"""Human confirmation of deletes and big bulk updates: facts from the database, single use, owner only."""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError, close_old_connections, connection
from rest_framework.test import APIClient

from agent.models import Alert, Artifact, Confirmation, Run, TraceEvent
from tasks.models import Task, TaskActivity
from tasks.services import task_create, task_update
from tests.clients import api_client
from tests.llm_stub import LLMStub

URL = "/api/assistant/requests/"



def quick(user: Any, action: str, page: dict[str, Any]) -> dict[str, Any]:
    response = api_client(user).post(URL, {"action": action, "page_context": page}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def confirm(client: APIClient, run_id: str, decision: str = "approve") -> Any:
    return client.post(f"/api/assistant/runs/{run_id}/confirm/", {"decision": decision}, format="json")


def row_page(task: Task) -> dict[str, Any]:
    return {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}


def deletions(title: str) -> int:
    return TaskActivity.objects.filter(kind=TaskActivity.Kind.DELETED, task_title=title).count()


@pytest.fixture
def parent(alice: Any, website: Any) -> Task:
    """A task with two subtasks."""
    task = task_create(actor=alice, project=website, title="Launch checklist", status="in_progress", assignee=alice)
    for title in ("Draft announcement", "Book venue"):
        task_create(actor=alice, project=website, title=title, parent=task)
    return task


def test_delete_asks_with_facts_from_the_database_then_deletes_once(alice: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    assert body["status"] == "needs_confirmation"
    confirmation = body["confirmation"]
    assert confirmation["action"] == "delete_task"
    facts = confirmation["facts"]
    assert (facts["title"], facts["status"], facts["subtask_count"]) == ("Launch checklist", "in_progress", 2)
    assert facts["subtask_titles"] == ["Draft announcement", "Book venue"]
    assert facts["mismatches"] == []
    assert Task.objects.filter(pk=parent.pk).exists() and deletions("Launch checklist") == 0

    client = api_client(alice)
    done = confirm(client, body["run_id"])
    assert done.status_code == 200
    assert done.json()["status"] == "done" and done.json()["confirmation"] is None
    assert done.json()["data"]["deleted"]["subtasks_deleted"] == 2
    assert not Task.objects.filter(title__in=["Launch checklist", "Draft announcement", "Book venue"]).exists()
    assert deletions("Launch checklist") == 1
    assert deletions("Draft announcement") == deletions("Book venue") == 1
    assert client.get(f"/api/assistant/runs/{body['run_id']}/").json()["status"] == "done"
    assert Confirmation.objects.get(pk=confirmation["id"]).decision == "approve"


def test_reject_keeps_the_task(alice: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    rejected = confirm(api_client(alice), body["run_id"], "reject").json()
    assert rejected["status"] == "done"
    assert rejected["data"]["rejected"] is True
    assert Task.objects.filter(pk=parent.pk).exists() and parent.subtasks.count() == 2
    assert deletions("Launch checklist") == 0


@pytest.mark.parametrize(("first", "second"), [("approve", "approve"), ("reject", "approve"), ("approve", "reject")])
def test_a_confirmation_is_single_use(alice: Any, parent: Task, first: str, second: str) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    client = api_client(alice)
    assert confirm(client, body["run_id"], first).status_code == 200
    again = confirm(client, body["run_id"], second)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "conflict"
    assert deletions("Launch checklist") == (1 if first == "approve" else 0)


def test_confirm_without_a_pending_confirmation_is_a_conflict(alice: Any, parent: Task) -> None:
    body = quick(alice, "mark_done", row_page(parent))
    assert body["status"] == "done"
    assert confirm(api_client(alice), body["run_id"]).status_code == 409


@pytest.mark.parametrize("decision", ["maybe", "", "APPROVE"])
def test_unknown_decision_is_a_400(alice: Any, parent: Task, decision: str) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    response = confirm(api_client(alice), body["run_id"], decision)
    assert response.status_code == 400 and "decision" in response.json()["error"]["fields"]
    assert Confirmation.objects.get(run_id=body["run_id"]).decided_at is None


def _wait_for_table_locks(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    """Retry a statement that hit a table lock, as a file database's busy timeout would wait.

    SQLite's in-memory test database shares one cache between connections and reports a lock at once
    (SQLITE_LOCKED) instead of waiting; PostgreSQL waits on row locks by itself.
    """
    deadline = time.monotonic() + 10
    while True:
        try:
            return execute(sql, params, many, context)
        except OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


@pytest.mark.django_db(transaction=True)
def test_concurrent_approvals_delete_exactly_once(alice: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def approve() -> None:
        close_old_connections()
        try:
            client = api_client(alice)
            with connection.execute_wrapper(_wait_for_table_locks):
                barrier.wait(timeout=10)
                codes.append(confirm(client, body["run_id"]).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(codes) == [200, 409]
    assert deletions("Launch checklist") == 1
    assert not Task.objects.filter(pk=parent.pk).exists()


def test_only_the_owner_may_confirm_read_or_trace(alice: Any, carol: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    run_id = body["run_id"]
    intruder = api_client(carol)  # carol is a member of the project, but the run is alice's
    assert confirm(intruder, run_id).status_code == 404
    assert intruder.get(f"/api/assistant/runs/{run_id}/").status_code == 404
    assert intruder.get(f"/api/assistant/runs/{run_id}/trace/").status_code == 404
    assert Task.objects.filter(pk=parent.pk).exists()
    assert Confirmation.objects.get(run_id=run_id).decided_at is None
    assert APIClient().get(f"/api/assistant/runs/{run_id}/").status_code == 401
    assert confirm(api_client(alice), run_id).json()["status"] == "done"


def test_approve_after_a_restart(alice: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    # Nothing survives in memory: the graph and the checkpointer's connection are made per request.
    done = confirm(api_client(alice), body["run_id"]).json()
    assert done["status"] == "done", done
    assert not Task.objects.filter(pk=parent.pk).exists() and deletions("Launch checklist") == 1


def test_target_changed_before_approval_aborts(alice: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    task_update(actor=alice, task=parent, title="Launch checklist v2")
    done = confirm(api_client(alice), body["run_id"]).json()
    assert done["status"] == "error"
    assert Run.objects.get(pk=body["run_id"]).error_code == "target_changed"
    assert Task.objects.filter(pk=parent.pk).exists() and parent.subtasks.count() == 2
    assert deletions("Launch checklist v2") == 0


def test_model_stated_title_that_differs_is_flagged(openai_settings: LLMStub, alice: Any, parent: Task) -> None:
    slots = {"operation": "delete", "task_id": None, "title": None, "status": None, "priority": None,
             "due_date": None, "scope": "selected", "expected_title": "Launch plan", "expected_status": None,
             "status_filter": [], "priority_filter": [], "assignee_me": False, "preset": None}
    openai_settings.push_json({"capability": "crud", "confidence": 0.9, "slots": slots})
    page = {**row_page(parent), "origin": "sidebar"}
    body = api_client(alice).post(URL, {"message": "delete the launch plan", "page_context": page},
                               format="json").json()
    assert body["status"] == "needs_confirmation", body
    facts = body["confirmation"]["facts"]
    assert facts["title"] == "Launch checklist"
    assert facts["mismatches"] == [{"field": "title", "stated": "Launch plan", "actual": "Launch checklist"}]
    alerts = Alert.objects.filter(run_id=body["run_id"], kind=Alert.Kind.FACT_MISMATCH)
    assert alerts.count() == 1 and alerts.get().details["actual"] == "Launch checklist"
    assert confirm(api_client(alice), body["run_id"]).json()["status"] == "done"
    assert alerts.count() == 1  # the node ran again on resume; the alert is not doubled
    assert deletions("Launch checklist") == 1


def _visible_page(tasks: list[Task], **extra: Any) -> dict[str, Any]:
    return {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [t.pk for t in tasks], **extra}


def _make(alice: Any, project: Any, count: int, status: str = "todo", prefix: str = "Row") -> list[Task]:
    return [task_create(actor=alice, project=project, title=f"{prefix} {n}", status=status) for n in range(count)]


def test_bulk_update_of_six_waits_for_confirmation(alice: Any, website: Any) -> None:
    tasks = _make(alice, website, 6)
    body = quick(alice, "mark_visible_done", _visible_page(tasks))
    assert body["status"] == "needs_confirmation"
    assert body["confirmation"]["action"] == "bulk_update"
    assert body["confirmation"]["facts"]["count"] == 6
    assert not Task.objects.filter(status="done").exists()
    done = confirm(api_client(alice), body["run_id"]).json()
    assert done["status"] == "done" and done["data"]["count"] == 6
    assert set(Task.objects.filter(pk__in=[t.pk for t in tasks]).values_list("status", flat=True)) == {"done"}


def test_bulk_update_of_five_runs_directly(alice: Any, website: Any) -> None:
    tasks = _make(alice, website, 5)
    body = quick(alice, "mark_visible_done", _visible_page(tasks))
    assert body["status"] == "done" and body["confirmation"] is None
    assert not Confirmation.objects.exists()
    assert Task.objects.filter(status="done").count() == 5


def test_bulk_update_aborts_when_the_selection_changed(alice: Any, website: Any) -> None:
    tasks = _make(alice, website, 6)
    body = quick(alice, "mark_visible_done", _visible_page(tasks))
    task_update(actor=alice, task=tasks[0], status="done")
    done = confirm(api_client(alice), body["run_id"]).json()
    assert done["status"] == "error"
    assert Run.objects.get(pk=body["run_id"]).error_code == "target_changed"
    assert Task.objects.filter(status="done").count() == 1


def test_bulk_rejection_holds_when_the_selection_shrank_below_the_threshold(alice: Any, website: Any) -> None:
    tasks = _make(alice, website, 6)
    body = quick(alice, "mark_visible_done", _visible_page(tasks))
    task_update(actor=alice, task=tasks[0], status="done")
    rejected = confirm(api_client(alice), body["run_id"], "reject").json()
    assert rejected["status"] == "done" and rejected["data"]["rejected"] is True
    assert Task.objects.filter(status="done").count() == 1


def test_bulk_update_with_many_visible_ids_requeries_by_the_page_filters(alice: Any, website: Any,
                                                                         mobile: Any) -> None:
    shown = _make(alice, website, 25)
    busy = _make(alice, website, 3, status="in_progress", prefix="Busy")
    elsewhere = _make(alice, mobile, 4, prefix="Mobile")
    page = _visible_page(shown, routeParams={"projectId": website.pk}, filters={"status": ["todo"]},
                         pagination={"page": 1, "pageSize": 25})
    body = quick(alice, "mark_visible_done", page)
    assert body["status"] == "needs_confirmation"
    facts = body["confirmation"]["facts"]
    assert facts["count"] == 25
    # The card lists all 25 by key and title, read back from the stored selection.
    assert sorted((r["key"], r["title"]) for r in facts["rows"]) == sorted((t.key, t.title) for t in shown)
    # 25 rows exceed the inline limit: the selection is an artifact and the update's ids are bound to it.
    select = TraceEvent.objects.get(run_id=body["run_id"], kind="tool_call", name="select_for_bulk")
    artifact = Artifact.objects.get(ref=select.payload["result"]["artifact"]["ref"])
    assert artifact.meta["source"] == "the page's filters, queried again"
    binding = TraceEvent.objects.get(run_id=body["run_id"], kind="binding", name="task_ids")
    assert binding.payload["count"] == 25
    assert binding.payload["binding"] == "step select at $.items[*].id"
    assert confirm(api_client(alice), body["run_id"]).json()["status"] == "done"
    assert set(Task.objects.filter(pk__in=[t.pk for t in shown]).values_list("status", flat=True)) == {"done"}
    assert set(Task.objects.filter(pk__in=[t.pk for t in busy]).values_list("status", flat=True)) == {"in_progress"}
    assert set(Task.objects.filter(pk__in=[t.pk for t in elsewhere]).values_list("status", flat=True)) == {"todo"}


def test_a_misspelt_key_in_a_decision_is_refused_not_ignored(alice: Any, parent: Task) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    response = api_client(alice).post(f"/api/assistant/runs/{body['run_id']}/confirm/",
                                      {"decision": "approve", "dropSteps": ["s2"]}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"dropSteps": ["Unknown field."]}
    assert Task.objects.filter(pk=parent.pk).exists()
    assert Confirmation.objects.get(pk=body["confirmation"]["id"]).decided_at is None


def test_a_decision_names_the_card_it_was_made_on(alice: Any, parent: Task, website: Any) -> None:
    body = quick(alice, "delete_task", row_page(parent))
    card = body["confirmation"]["id"]
    client = api_client(alice)
    # The run asks again (a revised plan does): a decision on the card the user saw is refused.
    newer = Confirmation.objects.create(run_id=body["run_id"], action="delete_task",
                                        facts=Confirmation.objects.get(pk=card).facts)
    stale = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/",
                        {"decision": "approve", "confirmation_id": card}, format="json")
    assert stale.status_code == 409 and "confirmation_id" in stale.json()["error"]["fields"]
    assert Task.objects.filter(pk=parent.pk).exists()
    assert not Confirmation.objects.filter(decided_at__isnull=False).exists()
    made_up = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/",
                          {"decision": "approve", "confirmation_id": str(uuid.uuid4())}, format="json")
    assert made_up.status_code == 400 and "no card of this run" in made_up.json()["error"]["message"]
    newer.delete()
    current = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/",
                          {"decision": "reject", "confirmation_id": card}, format="json")
    assert current.status_code == 200 and current.json()["status"] == "done"
    assert Task.objects.filter(pk=parent.pk).exists()
