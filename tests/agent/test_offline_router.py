"""The offline provider's keyword rules route like a model would, through the same validation."""
from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from agent.llm.base import LLMError
from agent.llm.offline import OfflineProvider
from agent.routing.decision import ROUTE_SCHEMA
from tasks.models import Task
from tasks.services import task_create

CASES = [
    ("show my blocked tasks", "query", {"status_filter": ["blocked"], "assignee_me": True}),
    ("list P1 tasks", "query", {"priority_filter": ["P1"]}),
    ("how many tasks do I have", "query", {"assignee_me": True}),
    ("my overdue tasks", "query", {"preset": "my_overdue"}),
    ("delete task #42", "crud", {"operation": "delete", "task_id": 42}),
    ("mark these done", "crud", {"operation": "update", "status": "done", "scope": "visible"}),
    ('create task "Write release notes" due 2026-12-15 P1', "crud",
     {"operation": "create", "title": "Write release notes", "due_date": "2026-12-15", "priority": "P1"}),
    ("weekly report please", "weekly_report", {"week": None}),
    ("weekly report for 2026-w48", "weekly_report", {"week": "2026-W48"}),
    ("this week's status report", "weekly_report", {"week": "this"}),
    ("生成本周周报", "weekly_report", {"week": "this"}),
    ("what could slip in Website Redesign?", "risk", {}),
    ("哪些任务有延期风险", "risk", {}),
    ("which tasks are at risk of slipping", "risk", {}),
    ("break this task down", "decompose", {"scope": "selected"}),
    ("what is the weather", "clarify", {}),
    ("hello", "clarify", {}),
]


@pytest.mark.parametrize(("message", "capability", "slots"), CASES)
def test_keyword_rules(message: str, capability: str, slots: dict[str, Any]) -> None:
    reply = OfflineProvider().complete(role="router", messages=[{"role": "user", "content": message}],
                                       json_schema=ROUTE_SCHEMA)
    answer = json.loads(reply.text)
    assert answer["capability"] == capability
    assert set(answer["slots"]) == set(ROUTE_SCHEMA["properties"]["slots"]["required"])  # type: ignore[index]
    assert {k: answer["slots"][k] for k in slots} == slots


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
    assert {s["action"] for s in body["data"]["suggestions"]} == {"mark_visible_done", "my_overdue"}
    assert Task.objects.count() == 1
