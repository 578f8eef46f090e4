"""The graph's own nodes around the capabilities: assemble (views enter the state) and respond."""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.assembler.views import ExecCtx, ModelSummary, RouterCtx
from agent.runtime import RunContext
from agent.state import Outcome, RespondInput

_NO_OUTCOME: Outcome = {"status": "error", "error_code": "internal", "data": {},
                        "reply": "Something went wrong; nothing more was done."}


class AssembleInput(TypedDict):
    router_ctx: RouterCtx
    exec_ctx: ExecCtx
    model_summary: ModelSummary


def assemble(state: AssembleInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Check that the three views arrived with the input; from here on they are frozen."""
    router, exec_ctx, summary = state.get("router_ctx"), state.get("exec_ctx"), state.get("model_summary")
    assert router is not None and exec_ctx is not None and summary is not None, "a run starts with its views"
    runtime.context.recorder.node(
        "assemble", summary_tokens=summary.tokens,
        exec_visible_ids=None if exec_ctx.visible_entity_ids is None else len(exec_ctx.visible_entity_ids),
    )
    return {}


def respond(state: RespondInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Close the run: make the outcome final (every key present), so the service only stores it."""
    outcome = state.get("outcome") or _NO_OUTCOME
    final: Outcome = {"status": outcome.get("status", "error"), "reply": outcome.get("reply", ""),
                      "data": outcome.get("data") or {}, "error_code": outcome.get("error_code", "")}
    runtime.context.recorder.node("respond", status=final["status"])
    return {"outcome": final}
