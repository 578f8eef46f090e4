"""decompose: break a task into subtasks: planner, plan card, executor, bounded replan.

The contract: docs/DESIGN.md#capabilities.
"""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.assembler.views import ExecCtx, ModelSummary
from agent.capabilities.outcome import failed
from agent.routing.decision import Route
from agent.runtime import RunContext
from pm_assistant.errors import ApplicationError

from .flow import FLOW


class DecomposeInput(TypedDict):
    message: str
    exec_ctx: ExecCtx
    model_summary: ModelSummary
    route: Route


def decompose(state: DecomposeInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Run the breakdown's own graph; it pauses at the plan card and resumes where it stopped."""
    try:
        result = FLOW.invoke({"exec_ctx": state["exec_ctx"], "model_summary": state["model_summary"],
                              "route": state["route"], "message": state["message"]}, context=runtime.context)
    except ApplicationError as exc:
        if exc.code != "not_found":
            return failed(f"Nothing more was changed: {exc.message}", exc.code)
        # Found when the plan was made but gone at the decision: the target changed under the card.
        return failed("I couldn't find that task among your projects, so nothing more was changed.",
                      "target_changed" if runtime.context.resuming else "not_found")
    return {"outcome": result["outcome"]}
