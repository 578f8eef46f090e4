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
