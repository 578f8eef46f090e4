"""clarify: say what was unclear and offer the quick actions of this page."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.runtime import RunContext
from agent.state import AgentState

from .outcome import clarify as clarify_outcome

SUGGESTIONS = {
    "home": [("my_overdue", "My overdue tasks"), ("weekly_report", "Weekly report"),
             ("risk_analysis", "Tasks at risk")],
    "project_detail": [("risk_analysis", "Tasks at risk this week"), ("weekly_report", "Weekly report")],
    "task_list": [("mark_visible_done", "Mark visible as done"), ("my_overdue", "My overdue tasks")],
}


def clarify(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Ask the user to rephrase, suggesting the page's quick actions."""
    ctx, route = state["router_ctx"], state.get("route")
    assert ctx is not None
    reason = route.reason if route and route.reason else "I'm not sure what you'd like me to do."
    suggestions = [{"action": a, "label": label} for a, label in SUGGESTIONS[ctx.page]]
    return clarify_outcome(f"{reason} Try rephrasing, or use a quick action.", suggestions=suggestions)
