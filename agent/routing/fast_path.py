"""The fast path: a quick button's (origin, action) names its capability. No LLM is asked."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pm_assistant.errors import InvalidInput

from .decision import Route, Slots

_DONE = Slots(operation="update", status="done", scope="selected")
_DELETE = Slots(operation="delete", scope="selected")

FAST_PATH: Mapping[tuple[str, str], tuple[str, Slots]] = MappingProxyType({
    ("task_row", "mark_done"): ("crud", _DONE),
    ("task_row", "delete_task"): ("crud", _DELETE),
    ("task_row", "decompose_task"): ("decompose", Slots(scope="selected")),
    ("quick_button", "mark_done"): ("crud", _DONE),
    ("quick_button", "delete_task"): ("crud", _DELETE),
    ("quick_button", "mark_visible_done"): ("crud", Slots(operation="update", status="done", scope="visible")),
    ("quick_button", "my_overdue"): ("query", Slots(preset="my_overdue", assignee_me=True)),
    ("workbench", "my_overdue"): ("query", Slots(preset="my_overdue", assignee_me=True)),
    ("quick_button", "decompose_task"): ("decompose", Slots(scope="selected")),
    ("quick_button", "weekly_report"): ("weekly_report", Slots()),
    ("workbench", "weekly_report"): ("weekly_report", Slots()),
    ("quick_button", "risk_analysis"): ("risk", Slots(preset="at_risk_this_week")),
    ("workbench", "risk_analysis"): ("risk", Slots(preset="at_risk_this_week")),
})
ACTIONS = frozenset(action for _, action in FAST_PATH)


def fast_path_route(*, origin: str, action: str) -> Route:
    """Return the route for a quick action, or a 400 naming the action."""
    entry = FAST_PATH.get((origin, action))
    if entry is None:
        if action not in ACTIONS:
            raise InvalidInput(f"action: {action!r} is not a known quick action.", field="action")
        raise InvalidInput(f"action: {action!r} cannot be sent from {origin!r}.", field="action")
    capability, slots = entry
    return Route(capability=capability, via="fast_path", slots=slots)  # type: ignore[arg-type]
