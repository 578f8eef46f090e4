"""The graph's own nodes: assemble (views enter the state), route, respond."""
from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.llm.base import LLMUnavailable
from agent.routing.fast_path import fast_path_route
from agent.routing.llm_router import llm_route
from agent.runtime import RunContext
from agent.state import AgentState

CapabilityNode = Literal["crud", "query", "clarify", "decompose", "weekly_report", "risk", "respond"]


def assemble(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Check that the three views arrived with the input; from here on they are frozen."""
    router, exec_ctx, summary = state.get("router_ctx"), state.get("exec_ctx"), state.get("model_summary")
    assert router is not None and exec_ctx is not None and summary is not None, "a run starts with its views"
    runtime.context.recorder.node(
        "assemble", summary_tokens=summary.tokens,
        exec_visible_ids=None if exec_ctx.visible_entity_ids is None else len(exec_ctx.visible_entity_ids),
    )
    return {}


def route(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Route a quick action by the table and free text by the router model."""
    ctx = state["router_ctx"]
    assert ctx is not None
    action = state.get("action")
    if action:
        decision = fast_path_route(origin=ctx.origin, action=action)
    else:
        try:
            decision = llm_route(ctx=ctx, message=state.get("message", ""), llm=runtime.context.llm)
        except LLMUnavailable as exc:
            runtime.context.recorder.node("route", error=str(exc))
            return {"route": None, "outcome": {
                "status": "error", "error_code": exc.code, "data": {},
                "reply": f"{exc} Nothing was changed. Try again, or use a quick action.",
            }}
    runtime.context.recorder.node("route", capability=decision.capability, via=decision.via,
                                  confidence=decision.confidence, slots=decision.slots)
    return {"route": decision}


def to_capability(state: AgentState) -> CapabilityNode:
    """Send the run to the routed capability, or straight to respond when routing failed."""
    decision = state.get("route")
    return "respond" if decision is None else decision.capability


def respond(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Close the run: the outcome is final."""
    outcome = state.get("outcome") or {}
    runtime.context.recorder.node("respond", status=outcome.get("status", "error"))
    return {}
