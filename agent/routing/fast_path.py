"""The fast path: a quick button's (origin, action) names its capability. No LLM is asked."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from agent.registry import BY_NAME
from pm_assistant.errors import InvalidInput

from .decision import Route, Slots
from .quick_actions import QUICK_ACTIONS


def _fast_path() -> Mapping[tuple[str, str], tuple[str, Slots]]:
    """Derive the routing table from the quick actions; one (origin, action) routes one way only."""
    table: dict[tuple[str, str], tuple[str, Slots]] = {}
    for entries in QUICK_ACTIONS.values():
        for entry in entries:
            target = (entry.capability, entry.slots)
            known = table.setdefault((entry.origin, entry.action), target)
            assert known == target, f"{entry.origin}/{entry.action} routes two ways"
    return MappingProxyType(table)


FAST_PATH = _fast_path()
ACTIONS = frozenset(action for _, action in FAST_PATH)


def fast_path_route(*, origin: str, action: str) -> Route:
    """Return the route for a quick action, or a 400 naming the action."""
    entry = FAST_PATH.get((origin, action))
    if entry is None:
        if action not in ACTIONS:
            raise InvalidInput(f"action: {action!r} is not a known quick action.", field="action")
        raise InvalidInput(f"action: {action!r} cannot be sent from {origin!r}.", field="action")
    capability, slots = entry
    return Route(capability=capability, via="fast_path", slots=slots)


def route_may_pause(route: Route) -> bool:
    """Whether a run on this route may pause (a card, a hand-off to the worker) and so needs the checkpointer.

    The service asks this of a quick action's route, found once by `fast_path_route` before anything is
    written, to choose how to run the request (with a checkpointer or in one transaction).
    """
    return BY_NAME[route.capability].may_interrupt(route.slots)
