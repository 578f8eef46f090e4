"""decompose: break a task into subtasks — planner, plan card, executor, bounded replan (DESIGN §5)."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.outcome import failed
from agent.runtime import RunContext
from agent.state import AgentState
from pm_assistant.errors import ApplicationError

from .flow import FLOW


def decompose(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Run the breakdown's own graph; it pauses at the plan card and resumes where it stopped."""
    ctx, summary, route = state["exec_ctx"], state["model_summary"], state["route"]
    assert ctx is not None and summary is not None and route is not None
    try:
        result = FLOW.invoke({"exec_ctx": ctx, "model_summary": summary, "route": route,
                              "message": state.get("message", "")}, context=runtime.context)
    except ApplicationError as exc:
        if exc.code != "not_found":
            return failed(f"Nothing more was changed: {exc.message}", exc.code)
        # Found when the plan was made but gone at the decision: the target changed under the card.
        return failed("I couldn't find that task among your projects, so nothing more was changed.",
                      "target_changed" if runtime.context.resuming else "not_found")
    return {"outcome": result["outcome"]}
