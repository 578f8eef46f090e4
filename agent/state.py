"""The graph's state. The three context views keep their first write; later writes are dropped."""
from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Annotated, Any, TypedDict

from agent.assembler.views import ExecCtx, ModelSummary, RouterCtx
from agent.routing.decision import Route

logger = logging.getLogger("agent.views")
# The running request's alert sink, so the reducer can record a dropped write on the run's trace.
view_alert_sink: ContextVar[Any] = ContextVar("view_alert_sink", default=None)


def keep_first(name: str) -> Any:
    """Build a reducer that keeps the first value written to a view and reports every later write."""

    def reducer(current: Any, update: Any) -> Any:
        if current is None:
            return update
        logger.warning("Dropped a write to the frozen view %s", name)
        sink = view_alert_sink.get()
        if sink is not None:
            sink(name)
        return current

    reducer.__name__ = f"keep_first_{name}"
    return reducer


class Outcome(TypedDict, total=False):
    status: str
    reply: str
    data: dict[str, Any]
    error_code: str


class AgentState(TypedDict, total=False):
    message: str
    action: str
    router_ctx: Annotated[RouterCtx | None, keep_first("router_ctx")]
    exec_ctx: Annotated[ExecCtx | None, keep_first("exec_ctx")]
    model_summary: Annotated[ModelSummary | None, keep_first("model_summary")]
    route: Route | None
    outcome: Outcome
