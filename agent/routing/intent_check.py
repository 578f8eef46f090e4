"""The intent check: a write the router model chose runs directly only if the user's own words ask for it.

The router model reads the user's message next to page text (titles, names) that anyone with
access to a project may have written, so a model that follows an instruction planted there could
turn "summarise this task" into an update. The check reads the message again with a different
source, the offline provider's deterministic rules, and compares the kind of write each reading
asks for (declared once: ``CapabilitySpec.write_kind``). Only a match lets the write run at once;
anything else waits for the user's approval on a card that states the change.
"""
from __future__ import annotations

from pydantic import ValidationError

from agent.llm.offline import rules_route
from agent.registry import BY_NAME

from .decision import IntentCheck, Route, Slots


def rules_write_kind(message: str) -> str | None:
    """The kind of write the deterministic rules read in the user's message, or None."""
    raw = rules_route(message)
    try:
        slots = Slots.model_validate({k: v for k, v in raw["slots"].items() if v is not None})
    except ValidationError:
        return None
    return BY_NAME[raw["capability"]].write_kind(slots)


def intent_check(*, message: str, route: Route) -> IntentCheck:
    """Compare the kind of write the model routed to with the one the rules read in the user's message."""
    model_kind = BY_NAME[route.capability].write_kind(route.slots)
    if model_kind is None:
        return IntentCheck(verdict="not_a_write")
    rules_kind = rules_write_kind(message)
    return IntentCheck(verdict="agrees" if rules_kind == model_kind else "differs", model_kind=model_kind,
                       rules_kind=rules_kind)
