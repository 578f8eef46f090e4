"""The graph's own nodes around the capabilities: assemble (the page becomes three views) and respond."""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.context.assemble import context_assemble
from agent.page_context.schema import EntityNames, PageContext
from agent.runtime import RunContext
from agent.state import Outcome, RespondInput

_NO_OUTCOME: Outcome = {"status": "error", "error_code": "internal", "data": {},
                        "reply": "Something went wrong; nothing more was done."}


class AssembleInput(TypedDict):
    page_context: PageContext
    names: EntityNames


def assemble(state: AssembleInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Split the page into RouterCtx, ExecCtx and ModelSummary, once; from this write on they are frozen."""
    # The acting user is the run's (from the session), never a value of the page context.
    assembled = context_assemble(context=state["page_context"], user_id=runtime.context.tools.user.pk,
                                 names=state["names"])
    exec_ctx, summary = assembled.exec, assembled.summary
    runtime.context.recorder.node(
        "assemble", summary_tokens=summary.tokens,
        exec_visible_ids=None if exec_ctx.visible_entity_ids is None else len(exec_ctx.visible_entity_ids),
    )
    return {"router_ctx": assembled.router, "exec_ctx": exec_ctx, "model_summary": summary}


def respond(state: RespondInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Close the run: make the outcome final (every key present), so the service only stores it."""
    outcome = state.get("outcome") or _NO_OUTCOME
    final: Outcome = {"status": outcome.get("status", "error"), "reply": outcome.get("reply", ""),
                      "data": outcome.get("data") or {}, "error_code": outcome.get("error_code", "")}
    runtime.context.recorder.node("respond", status=final["status"])
    return {"outcome": final}
