"""The route node: free text goes to the router model; a quick action arrives already routed.

Routing happens once. A quick action's route comes from the fast-path table in the service, before
anything is written, and enters the graph as input; this node then only records it.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langgraph.runtime import Runtime

from agent.assembler.views import RouterCtx
from agent.llm.base import LLMUnavailable
from agent.routing.decision import Route
from agent.routing.intent_check import intent_check
from agent.routing.llm_router import llm_route
from agent.runtime import RunContext


class RouteInput(TypedDict):
    message: str
    router_ctx: RouterCtx
    route: NotRequired[Route | None]


def route(state: RouteInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Keep the fast path's route, or ask the router model to classify the message."""
    decision = state.get("route")
    if decision is None:
        try:
            decision = llm_route(ctx=state["router_ctx"], message=state["message"], llm=runtime.context.llm)
        except LLMUnavailable as exc:
            runtime.context.recorder.node("route", error=str(exc))
            return {"route": None, "outcome": {
                "status": "error", "error_code": exc.code, "data": {},
                "reply": f"{exc} Nothing was changed. Try again, or use a quick action.",
            }}
        # The model's choice of a write is checked against the user's own words, read by the rules.
        intent = intent_check(message=state["message"], route=decision)
        decision = decision.model_copy(update={"intent": intent})
        if intent.verdict == "declined":
            # "don't …", "should I …?", "just kidding": no write was asked, so none is offered either;
            # clarify says what the write would have done and that nothing changed.
            decision = Route(capability="clarify", via=decision.via, confidence=decision.confidence,
                             intent=intent)
    runtime.context.recorder.node("route", capability=decision.capability, via=decision.via,
                                  confidence=decision.confidence, slots=decision.slots,
                                  intent=decision.intent)
    return {"route": decision}


def to_capability(state: RouteInput) -> str:
    """Send the run to the routed capability, or straight to respond when routing failed."""
    decision = state.get("route")
    return "respond" if decision is None else decision.capability
