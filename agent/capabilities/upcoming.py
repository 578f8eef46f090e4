"""Slots for the capabilities that are routed already but not built yet."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.runtime import RunContext
from agent.state import AgentState

from .outcome import failed

NAMES = {"decompose": "Task breakdown", "weekly_report": "The weekly report", "risk": "Delay-risk analysis"}


def upcoming(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Say plainly that the routed capability is not available yet: an error, not a success."""
    route = state["route"]
    assert route is not None
    return failed(f"{NAMES[route.capability]} is not available yet in this version; nothing was done.",
                  "not_available", available=False)
