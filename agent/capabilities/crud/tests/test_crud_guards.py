"""crud acts only on tasks the user named or selected, shows every subtask that would go, and asks
only when the user could say yes."""
from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from agent.models import Alert, Confirmation
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import ask, route_json


def _post(user: Any, payload: dict[str, Any]) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/assistant/requests/", payload, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _confirm(user: Any, run_id: str, decision: str = "approve") -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/assistant/runs/{run_id}/confirm/", {"decision": decision}, format="json").json()


def test_a_task_number_the_user_never_typed_is_not_acted_on(alice: Any, website: Any,
                                                            openai_settings: Any) -> None:
    selected = task_create(actor=alice, project=website, title="Selected one")
    other = task_create(actor=alice, project=website, title="Some other task")
    openai_settings.push_json(route_json("crud", operation="update", status="done", task_id=other.pk))
    page = {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": selected.pk}}
    body = ask(alice, "mark this one done", page)
    assert body["status"] == "needs_clarification"
    assert set(Task.objects.values_list("status", flat=True)) == {"todo"}
    alert = Alert.objects.get(kind=Alert.Kind.MODEL_ID)
    assert alert.details["value"] == other.pk


@pytest.mark.parametrize("typed", ["mark #{pk} done",
                                   # "把5号任务…": the reader reads a reference there, so it is what the user typed
                                   "把{pk}号任务标记为完成"])
def test_a_task_number_the_user_typed_is_acted_on(alice: Any, website: Any, openai_settings: Any, typed: str) -> None:
    task = task_create(actor=alice, project=website, title="Typed one")
    openai_settings.push_json(route_json("crud", operation="update", status="done", task_id=task.pk))
    body = ask(alice, typed.format(pk=task.pk), {"page": "home", "origin": "sidebar"})
    assert body["status"] == "done"
    task.refresh_from_db()
    assert task.status == "done"


def test_the_card_counts_every_subtask_below_and_a_new_one_stops_the_delete(alice: Any, website: Any) -> None:
    root = task_create(actor=alice, project=website, title="Root")
    child = task_create(actor=alice, project=website, title="Child", parent=root)
    task_create(actor=alice, project=website, title="Grandchild", parent=child)
    page = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": root.pk}}
    body = _post(alice, {"action": "delete_task", "page_context": page})
    facts = body["confirmation"]["facts"]
    assert facts["subtask_count"] == 2 and facts["subtask_titles"] == ["Child", "Grandchild"]
    task_create(actor=alice, project=website, title="Great-grandchild", parent=Task.objects.get(title="Grandchild"))
    result = _confirm(alice, body["run_id"])
    assert (result["status"], result["data"].get("rejected")) == ("error", None)
    assert Task.objects.count() == 4


def test_a_viewer_gets_no_delete_card(dave: Any, alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Read only for dave")
    page = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}
    body = _post(dave, {"action": "delete_task", "page_context": page})
    assert body["status"] == "error" and body["confirmation"] is None
    assert not Confirmation.objects.exists() and Task.objects.filter(pk=task.pk).exists()


def test_a_viewer_marking_visible_tasks_done_is_told_they_are_read_only(dave: Any, alice: Any,
                                                                        website: Any) -> None:
    tasks = [task_create(actor=alice, project=website, title=f"T{n}") for n in range(3)]
    page = {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [t.pk for t in tasks]}
    body = _post(dave, {"action": "mark_visible_done", "page_context": page})
    assert body["status"] == "error"
    assert set(Task.objects.values_list("status", flat=True)) == {"todo"}


def test_delete_all_these_asks_instead_of_deleting_one(alice: Any, website: Any) -> None:
    tasks = [task_create(actor=alice, project=website, title=f"T{n}") for n in range(3)]
    page = {"page": "task_list", "origin": "sidebar", "visibleEntityIds": [t.pk for t in tasks],
            "selectedEntity": {"type": "task", "id": tasks[0].pk}}
    body = _post(alice, {"message": "delete all these tasks", "page_context": page})
    assert body["status"] == "needs_clarification" and body["confirmation"] is None
    assert Task.objects.count() == 3
