"""Words from users, task titles and loose model answers never crash a run or trip the context guard."""
from __future__ import annotations

from typing import Any

import pytest

from agent.models import Alert, Run
from agent.prompting.messages import PromptPart, PromptRefused, prompt_assemble
from tasks.services import task_create

from .test_llm_router import ask, route_json

HOME = {"page": "home", "origin": "sidebar"}


def test_a_message_naming_a_context_key_is_routed_not_refused(alice: Any, website: Any,
                                                              openai_settings: Any) -> None:
    openai_settings.push_json(route_json("query", assignee_me=True))
    openai_settings.push_text("Nothing much.")
    body = ask(alice, "list my tasks by selectedEntity and pageSize", HOME)
    assert body["status"] == "done"
    assert body["route"] == {"capability": "query", "via": "llm_router"}


def test_a_task_title_with_a_context_key_is_explained(alice: Any, website: Any, openai_settings: Any) -> None:
    task_create(actor=alice, project=website, title="Rename pageSize option", assignee=alice)
    openai_settings.push_json(route_json("query", assignee_me=True))
    openai_settings.push_text("One task: the pageSize rename.")
    body = ask(alice, "what am I working on", HOME)
    assert body["status"] == "done" and body["data"]["count"] == 1
    assert openai_settings.calls == 2
    assert not Alert.objects.exists()


def test_raw_context_in_a_context_part_is_refused_with_its_own_kind() -> None:
    with pytest.raises(PromptRefused) as refused:
        prompt_assemble([PromptPart(ref="model_summary", form="summary", role="system",
                                    text='{"visibleEntityIds": [1, 2, 3]}')])
    assert refused.value.kind == "raw_context"


@pytest.mark.parametrize("content", [
    '{"capability": "query", "confidence": 0.9, "slots": ["x"]}',
    '{"capability": "query", "confidence": NaN, "slots": {}}',
    '{"capability": "query", "confidence": 7, "slots": {}}',
    '{"capability": "query", "confidence": "high", "slots": {}}',
    '{"capability": "query", "slots": {}}',
    '["query"]',
])
def test_a_malformed_router_answer_asks_the_user(alice: Any, website: Any, openai_settings: Any,
                                                 content: str) -> None:
    openai_settings.push_text(content)
    body = ask(alice, "show my tasks", HOME)
    assert body["status"] == "needs_clarification"
    assert Run.objects.get().status == "needs_clarification"
