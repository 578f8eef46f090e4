"""The node of every capability the registry routes but that is not built yet."""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.registry import BY_NAME
from agent.routing.decision import Route
from agent.runtime import RunContext

from .outcome import failed


class NotBuiltInput(TypedDict):
    route: Route


def not_built(state: NotBuiltInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Say plainly that the routed capability is not available yet: an error, not a success."""
    label = BY_NAME[state["route"].capability].label
    return failed(f"{label} is not available yet in this version; nothing was done.",
                  "not_available", available=False)
