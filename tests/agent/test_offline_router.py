"""The offline provider's keyword rules route like a model would, through the same validation."""
from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from agent.llm.base import LLMError
from agent.llm.offline import OfflineProvider
from agent.routing.quick_actions import quick_actions_for
from tasks.models import Task
from tasks.services import task_create

# The table of English and Chinese requests is in test_router_table.py.


def test_offline_never_writes_text() -> None:
    with pytest.raises(LLMError):
        OfflineProvider().complete(role="generation", messages=[{"role": "user", "content": "hi"}])


def test_an_unclear_message_is_a_clarification_with_suggestions(alice: Any, website: Any) -> None:
    task_create(actor=alice, project=website, title="Something")
    client = APIClient()
    client.force_authenticate(alice)
    body = client.post("/api/assistant/requests/", {
        "message": "what is the weather", "page_context": {"page": "task_list", "origin": "sidebar"}},
        format="json").json()
    assert body["status"] == "needs_clarification"
    assert [s["action"] for s in body["data"]["suggestions"]] == [e.action for e in quick_actions_for("task_list")]
    assert Task.objects.count() == 1


@pytest.mark.parametrize(("text", "on_second"), [("mrak task {a} as done", False),
                                                 ("mark task {a} done, no wait, task {b}", True),
                                                 ("task {a} → done", False),
                                                 ("shipped it 🚀 can you flip task {a} to done", False)])
def test_a_change_not_read_whole_waits_on_its_card_and_changes_nothing(alice: Any, website: Any, text: str,
                                                                      on_second: bool) -> None:
    first, second = (task_create(actor=alice, project=website, title=t) for t in ("One", "Two"))
    client = APIClient()
    client.force_authenticate(alice)
    body = client.post("/api/assistant/requests/", {
        "message": text.format(a=first.pk, b=second.pk), "page_context": {"page": "task_list", "origin": "sidebar"}},
        format="json").json()
    assert body["status"] == "needs_confirmation", body
    facts = body["confirmation"]["facts"]
    assert body["confirmation"]["action"] == "confirm_write"
    assert facts["task_id"] == (second if on_second else first).pk and facts["change"].endswith("status done")
    assert set(Task.objects.values_list("status", flat=True)) == {"todo"}


@pytest.mark.parametrize(("text", "change"), [
    ("把任务{a}标记为完城", "已完成"),  # a homophone put right by its sound (the card speaks the message's language)
    ("carol has bandwidth this week, so please assign task {a} to her", "carol"),  # "her" for the one person named
    ("#{a} 给carol", "carol"),  # a task and a person with no verb
])
def test_a_change_read_through_a_repair_or_a_pronoun_is_done_only_once_approved(alice: Any, carol: Any, website: Any,
                                                                                 text: str, change: str) -> None:
    task = task_create(actor=alice, project=website, title="One")
    client = APIClient()
    client.force_authenticate(alice)
    body = client.post("/api/assistant/requests/", {
        "message": text.format(a=task.pk), "page_context": {"page": "task_list", "origin": "sidebar"}},
        format="json").json()
    assert body["status"] == "needs_confirmation", body
    assert body["confirmation"]["facts"]["task_id"] == task.pk and change in body["confirmation"]["facts"]["change"]
    task.refresh_from_db()
    assert (task.status, task.assignee_id) == ("todo", None)
    done = client.post(f"/api/assistant/runs/{body['run_id']}/confirm/", {"decision": "approve"}, format="json").json()
    assert done["status"] == "done", done
    task.refresh_from_db()
    assert task.status == "done" if change == "已完成" else task.assignee_id == carol.pk

