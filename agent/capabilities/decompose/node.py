"""The decompose node: hand the run to the flow (planner, plan card, executor, bounded replan)."""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import failed
from agent.context.three_views import ExecCtx, ModelSummary
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.words.language import language_of
from pm_assistant.errors import ApplicationError

from .answers import TEXTS
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
        words = TEXTS[language_of(state["message"])]
        if exc.code != "not_found":
            return failed(words["nothing_more"].format(why=exc.message), exc.code)
        # Found when the plan was made but gone at the decision: the target changed under the card.
        return failed(words["not_found"],
                      "target_changed" if runtime.context.resuming else "not_found")
    return {"outcome": result["outcome"]}
