"""The offline provider: the deterministic reader stands in for the router model; no text generation.

It needs no key and no network, so the demo works anywhere. Its router answers in the same JSON
shape as a real model and goes through the same validation. The reading is the grammar's
(agent/reading/), the same one the intent check uses, so what the offline provider writes at once
is exactly what the check lets a model write at once: a change read whole as a request. A change
named but negated or questioned goes to clarify, which says nothing changed; a change found in a
message not read whole is routed as the write, so the intent check stops it on a card that
states it ("Did you mean …?").
"""
from __future__ import annotations

import json
from typing import Any

from agent.reading.reader import Mood, Reading, read

from .base import LLMError, LLMReply, Message, Role, RunListener

# Every slot key present, as a strict structured-output answer has them (ROUTE_SCHEMA).
_EMPTY_SLOTS: dict[str, Any] = {
    "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
    "scope": None, "project_name": None, "expected_title": None, "expected_status": None, "status_filter": [],
    "priority_filter": [], "assignee_me": False, "assignee": None, "unassigned": False, "due_after": None,
    "due_before": None, "preset": None, "week": None,
}


def route_of(reading: Reading) -> dict[str, Any]:
    """The router's answer for a reading: its capability and every slot."""
    confidence = 0.2 if reading.capability == "clarify" else 0.9
    slots = {**_EMPTY_SLOTS, **{k: v for k, v in reading.slots.items() if k in _EMPTY_SLOTS}}
    return {"capability": reading.capability, "confidence": confidence, "slots": slots}


def rules_read(message: str) -> dict[str, Any]:
    """What the message names (a capability and slots), whether or not it asks for it."""
    return route_of(read(message))


def unasked_write(message: str, reading: Reading | None = None) -> tuple[Mood, dict[str, Any]] | None:
    """The write the message names and reads whole as not asked ("don't mark task 5 done"), with its mood."""
    reading = reading or read(message)
    if reading.mood not in ("negated", "question") or reading.capability == "clarify":
        return None
    return reading.mood, route_of(reading)


def rules_route(message: str) -> dict[str, Any]:
    """Route the message: a write named but negated or questioned is answered, not done or offered."""
    reading = read(message)
    if unasked_write(message, reading) is not None:
        # The clarify node explains what the write would do; the slots say which write.
        return {**route_of(reading), "capability": "clarify"}
    return route_of(reading)


class OfflineProvider:
    name = "offline"
    offline = True
    endpoint = "offline"

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None,
                 budget: float = 30.0, sink: RunListener | None = None) -> LLMReply:
        """Classify the user's message by the reader; refuse to write free text."""
        if role != "router" or json_schema is None:
            raise LLMError("The offline provider does not write text; the template answer is used.")
        message = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        return LLMReply(text=json.dumps(rules_route(message)), model="offline-rules", prompt_tokens=0,
                        completion_tokens=0)
