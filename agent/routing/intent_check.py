"""The intent check: a write the router model chose runs directly only if the user's own words ask for it.

The router model reads the user's message next to page text (titles, names) that anyone with
access to a project may have written, so a model that follows an instruction planted there could
turn "summarise this task" into an update; a model may also miss a "don't", a condition or a
correction. The check reads the message again with a different source, the deterministic reader
(agent/reading/, the offline provider's reading too), and a write runs at once only when that
reading positively agrees: the grammar read the *whole* message as a request, for the same
operation on the same target with the same values (declared once: ``CapabilitySpec.write_kind``).

- ``agrees``: run the write.
- ``declined``: the reader read the whole message as negating or questioning the write ("don't …",
  "should I …?"); nothing is written and the clarify node says so.
- ``differs``: anything else (a message not read whole, another write, or none); the write waits on
  a card that states it, so the user decides.

When the model wrote the task a correction took back ("set task 5 to blocked, sorry I meant task
6") and the reader read the same write on the task meant, the write is moved there
(``checked_route``): it still waits on its card, and never runs on the task taken back. Any other
difference (another value, another task) leaves the model's write on its card as it is.
"""
from __future__ import annotations

from pydantic import ValidationError

from agent.llm.offline import route_of
from agent.reading.reader import Reading, read
from agent.registry import BY_NAME

from .decision import IntentCheck, Route, Slots


def rules_write_kind(reading: Reading) -> str | None:
    """The kind of write the reader read in the user's message (asked or not), or None."""
    raw = route_of(reading)
    try:
        slots = Slots.model_validate({k: v for k, v in raw["slots"].items() if v is not None})
    except ValidationError:
        return None
    return BY_NAME[raw["capability"]].write_kind(slots)


def intent_check(*, message: str, route: Route) -> IntentCheck:
    """Compare the write the model routed to with the one the reader read, and whether the message asks for it."""
    model_kind = BY_NAME[route.capability].write_kind(route.slots)
    if model_kind is None:
        return IntentCheck(verdict="not_a_write")
    reading = read(message)
    rules_kind = rules_write_kind(reading)
    if reading.mood in ("negated", "question") and rules_kind is not None:
        return IntentCheck(verdict="declined", model_kind=model_kind, rules_kind=rules_kind, mood=reading.mood)
    agrees = reading.asks_write and rules_kind == model_kind
    return IntentCheck(verdict="agrees" if agrees else "differs", model_kind=model_kind, rules_kind=rules_kind,
                       mood=reading.mood, rules_task_id=None if agrees else _meant(reading, rules_kind, route))


def _meant(reading: Reading, rules_kind: str | None, route: Route) -> int | None:
    """The task a correction meant, when the model wrote the one it took back and the same write otherwise."""
    found = reading.change
    if found is None or found.taken_back is None or found.taken_back != route.slots.task_id:
        return None
    moved = route.slots.model_copy(update={"task_id": found.target.task_id, "scope": None})
    same = reading.capability == route.capability and \
        BY_NAME[route.capability].write_kind(moved) == rules_kind
    return found.target.task_id if same else None


def checked_route(*, message: str, route: Route) -> Route:
    """The model's route with the check's verdict: a declined write becomes clarify (which says nothing
    changed); a write on the task a correction took back is moved to the task meant, and waits on its
    card (the verdict stays "differs")."""
    intent = intent_check(message=message, route=route)
    if intent.verdict == "declined":
        return Route(capability="clarify", via=route.via, confidence=route.confidence, intent=intent)
    if intent.rules_task_id is not None:
        slots = route.slots.model_copy(update={"task_id": intent.rules_task_id, "scope": None})
        return route.model_copy(update={"slots": slots, "intent": intent})
    return route.model_copy(update={"intent": intent})
