"""An unclear message is answered with what could not be read: the offline reader names its words.

The offline provider's reader stands in for the model, so when it cannot read a message it says
which words it could not read, in the message's language, joined into phrases and capped; a model
that routes to clarify gives its own reason instead (its reading is not the reader's).
"""
from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import LLMStub, ask, route_json

HOME = {"page": "home", "origin": "sidebar"}


@pytest.mark.django_db
@pytest.mark.parametrize(("message", "named"), [
    ("tasks with no due date", "I couldn't read 'no due date'"),
    ("asdkjh qweoiu zxcmnb", "I couldn't read 'asdkjh qweoiu zxcmnb'"),
    ("所有没有截止日期的任务", "我没能读懂“没”、“截止日期”"),
])
def test_the_words_the_reader_could_not_read_are_named(alice: Any, message: str, named: str) -> None:
    run = ask(alice, message, HOME)
    assert run["status"] == "needs_clarification", run
    assert run["reply"].startswith(named), run["reply"]


@pytest.mark.django_db
def test_a_long_unreadable_message_names_five_phrases_at_most_each_cut(alice: Any) -> None:
    message = ", ".join(["zq" * 40] * 9)  # nine unread phrases between commas
    reply = ask(alice, message, HOME)["reply"]
    first = reply.splitlines()[0]
    assert first.count("…'") == 5 and "zq" * 21 not in first, first


@pytest.mark.django_db
def test_a_models_clarify_keeps_its_own_reason(alice: Any, openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("clarify", confidence=0.2))
    reply = ask(alice, "tasks with no due date", HOME)["reply"]
    assert "couldn't read" not in reply and "not clear enough" in reply, reply


@pytest.mark.django_db
def test_the_words_named_are_shown_as_written_not_as_markdown(alice: Any) -> None:
    reply = ask(alice, "[x](/projects/1) **bold**", HOME)["reply"]
    assert reply.startswith(r"I couldn't read '\[x\](/projects/1) \*\*bold\*\*'"), reply
