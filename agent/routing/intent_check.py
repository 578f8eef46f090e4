"""The intent check: a write the router model chose runs directly only if the user's own words ask for it.

The router model reads the user's message next to page text (titles, names) that anyone with
access to a project may have written, so a model that follows an instruction planted there could
turn "summarise this task" into an update; a model may also miss a "don't", a question or a
"just kidding". The check reads the message again with a different source, the offline provider's
deterministic rules, and a write runs at once only when that reading positively agrees: the
message is a request (agent/llm/mood.py), and it asks for the same operation on the same target
with the same values (declared once: ``CapabilitySpec.write_kind``).

- ``agrees``: run the write.
- ``declined``: the rules read a write in the message, but the message negates, questions,
  supposes, quotes or takes it back; nothing is written and the clarify node says so.
- ``differs``: anything else (the rules read another write, or none); the write waits on a card
  that states it, so the user decides.
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from agent.llm.offline import request_mood, rules_read
from agent.registry import BY_NAME

from .decision import IntentCheck, Route, Slots


def rules_write_kind(message: str, reading: dict[str, Any] | None = None) -> str | None:
    """The kind of write the deterministic rules read in the user's message (asked or not), or None."""
    raw = reading or rules_read(message)
    try:
        slots = Slots.model_validate({k: v for k, v in raw["slots"].items() if v is not None})
    except ValidationError:
        return None
    return BY_NAME[raw["capability"]].write_kind(slots)


def intent_check(*, message: str, route: Route) -> IntentCheck:
    """Compare the write the model routed to with the one the rules read, and whether the message asks for it."""
    model_kind = BY_NAME[route.capability].write_kind(route.slots)
    if model_kind is None:
        return IntentCheck(verdict="not_a_write")
    # One reading of the message serves both questions: which write it names, and whether it asks for it.
    reading = rules_read(message)
    mood, rules_kind = request_mood(message, reading), rules_write_kind(message, reading)
    if mood != "request" and rules_kind is not None:
        return IntentCheck(verdict="declined", model_kind=model_kind, rules_kind=rules_kind, mood=mood)
    agrees = mood == "request" and rules_kind == model_kind
    return IntentCheck(verdict="agrees" if agrees else "differs", model_kind=model_kind, rules_kind=rules_kind,
                       mood=mood)
