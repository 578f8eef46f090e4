"""clarify: say what was unclear and offer the quick actions of this page."""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langgraph.runtime import Runtime

from agent.assembler.views import RouterCtx
from agent.routing.decision import Route
from agent.routing.quick_actions import quick_actions_for
from agent.runtime import RunContext

from .outcome import clarify as clarify_outcome


class ClarifyInput(TypedDict):
    router_ctx: RouterCtx
    route: NotRequired[Route | None]


def clarify(state: ClarifyInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Ask the user to rephrase, suggesting the page's quick actions."""
    ctx, route = state["router_ctx"], state.get("route")
    reason = route.reason if route and route.reason else "I'm not sure what you'd like me to do."
    suggestions = [{"action": entry.action, "label": entry.label} for entry in quick_actions_for(ctx.page)]
    return clarify_outcome(f"{reason} Try rephrasing, or use a quick action.", suggestions=suggestions)
