"""Answers a broken or hostile model may give, over the real SDK and HTTP: each ends the run in words.

Each case once raised past its checks (a 500, or a database error on PostgreSQL); a bug or an answer
no check foresaw still ends the run as `error` with a reply, never a server error
(tests/agent/test_smoke_flow.py).
"""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.capabilities.common.fidelity import Allowed, stray_numbers
from agent.llm.stream_read import TOKENS_REPORTED_MAX
from agent.models import Alert, Run
from agent.run.trace import TraceRecorder
from pm_assistant.json_input import JSONInputError, json_loads_bounded
from projects.models import Project
from tests.clients import api_client
from tests.data_layer.helpers import route_json
from tests.llm_stub import LLMStub

PAGE = {"page": "home", "origin": "sidebar"}


def _ask(user: User, message: str) -> Any:
    return api_client(user).post("/api/assistant/requests/", {"message": message, "page_context": PAGE},
                                 format="json")


@pytest.mark.parametrize("capability", [["crud"], {"name": "crud"}, 7, None])
def test_a_router_naming_no_capability_by_name_gets_a_question_back(openai_settings: LLMStub, alice: User,
                                                                     website: Project, capability: Any) -> None:
    openai_settings.push_json({"capability": capability, "confidence": 0.9, "slots": {}})
    response = _ask(alice, "show my tasks")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "needs_clarification"


def test_usage_figures_no_call_could_have_are_read_as_unknown(openai_settings: LLMStub, alice: User,
                                                              website: Project) -> None:
    openai_settings.push_json(route_json("query", assignee_me=True), prompt_tokens=10**20, completion_tokens=2**40)
    openai_settings.push_text("You have no tasks.", prompt_tokens=10**20)
    response = _ask(alice, "show my tasks")
    assert response.status_code == 200, response.content
    run = Run.objects.get(pk=response.json()["run_id"])
    assert run.llm_calls >= 1 and 0 <= run.prompt_tokens <= TOKENS_REPORTED_MAX


def test_numbers_next_to_chinese_or_in_wide_digits_are_checked() -> None:
    allowed = Allowed.of([5, 12], [])
    assert stray_numbers("本周完成了99个任务，逾期12个", allowed) == ["99"]
    assert stray_numbers("完成了９９个", allowed) == ["99"]
    assert stray_numbers("Closed ١٢ and ९९ tasks", allowed) == ["99"]  # Arabic-Indic 12 is allowed
    assert stray_numbers("P0 tasks: 5", allowed) == []  # a priority label is not a figure


def test_numbers_written_as_words_are_checked_in_english_and_chinese() -> None:
    allowed = Allowed.of([12, 3], [])
    assert stray_numbers("十二个任务完成，三项逾期，大家一起努力", allowed) == []
    assert stray_numbers("十三个任务完成，两天后到期", allowed) == ["十三", "两"]
    assert stray_numbers("twelve done, thirty open", allowed) == ["thirty"]


def test_a_number_too_long_to_read_is_stray_not_a_crash() -> None:
    digits = "7" * 5000
    assert stray_numbers(f"{digits} tasks", Allowed.of([5], [])) == [digits]


def test_an_alert_key_longer_than_its_column_is_stored_shortened_and_still_deduplicates(alice: User) -> None:
    run = Run.objects.create(user=alice, message="x", page_context={})
    recorder = TraceRecorder(run)
    key = "task_id:" + "9" * 400
    recorder.alert(Alert.Kind.BAD_BINDING, "first", key=key)
    recorder.alert(Alert.Kind.BAD_BINDING, "again", key=key)
    recorder.alert(Alert.Kind.BAD_BINDING, "another", key=key[:-1] + "8")
    keys = list(Alert.objects.filter(run=run).values_list("key", flat=True))
    assert len(keys) == 2 and all(len(k) <= 200 for k in keys) and keys[0] != keys[1]


def test_a_number_no_float_holds_is_refused_as_input(alice: User) -> None:
    with pytest.raises(JSONInputError, match="out of range"):
        json_loads_bounded('{"lines": 1e999}')
    response = api_client(alice).generic("POST", "/api/assistant/requests/",
                                         '{"message": "hi", "page_context": {"page": "home", "origin": "sidebar"}, '
                                         '"x": 1e999}', content_type="application/json")
    assert response.status_code == 400
