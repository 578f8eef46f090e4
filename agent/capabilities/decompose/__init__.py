"""decompose: break a task into subtasks — planner, plan card, executor, bounded replan (DESIGN §5)."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.runtime import RunContext
from agent.state import AgentState

from .flow import FLOW


def decompose(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Run the breakdown's own graph; it pauses at the plan card and resumes where it stopped."""
    ctx, summary, route = state["exec_ctx"], state["model_summary"], state["route"]
    assert ctx is not None and summary is not None and route is not None
    result = FLOW.invoke({"exec_ctx": ctx, "model_summary": summary, "route": route,
                          "message": state.get("message", "")}, context=runtime.context)
    return {"outcome": result["outcome"]}
