"""clarify: say what was unclear and offer the quick actions of this page."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.routing.quick_actions import QUICK_ACTIONS
from agent.runtime import RunContext
from agent.state import AgentState

from .outcome import clarify as clarify_outcome


def clarify(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Ask the user to rephrase, suggesting the page's quick actions."""
    ctx, route = state["router_ctx"], state.get("route")
    assert ctx is not None
    reason = route.reason if route and route.reason else "I'm not sure what you'd like me to do."
    suggestions = [{"action": entry.action, "label": entry.label} for entry in QUICK_ACTIONS[ctx.page]]
    return clarify_outcome(f"{reason} Try rephrasing, or use a quick action.", suggestions=suggestions)
