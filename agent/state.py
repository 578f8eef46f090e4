"""The graph's state. The three context views keep their first write; later writes are dropped.

Each node declares the narrow slice of this state it reads (a TypedDict beside the node, given
to LangGraph as the node's input schema), so a capability never receives a view its allocation
does not give it.
"""
from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Annotated, Any, NotRequired, TypedDict

from django.conf import settings

from agent.context.three_views import ExecCtx, ModelSummary, RouterCtx
from agent.page_context.schema import EntityNames, PageContext
from agent.routing.decision import Route

logger = logging.getLogger("agent.context")
# The running request's alert sink, so the reducer can record a dropped write on the run's trace.
view_alert_sink: ContextVar[Any] = ContextVar("view_alert_sink", default=None)


class FrozenViewWrite(RuntimeError):
    """A node wrote a view after the first write (raised where settings.AGENT_FROZEN_VIEWS_RAISE is on)."""


def keep_first(name: str) -> Any:
    """Build a reducer that keeps the first value written to a view and reports every later write."""

    def reducer(current: Any, update: Any) -> Any:
        if current is None:
            return update
        if settings.AGENT_FROZEN_VIEWS_RAISE:
            raise FrozenViewWrite(f"A node wrote the frozen view {name} after its first write.")
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
    """The user's free text ('' for a quick action)."""
    action: str
    """The quick action's name ('' for free text)."""
    page_context: PageContext | None
    """The page as the browser described it, validated; only the assemble node reads it."""
    names: EntityNames | None
    """The few names the summary mentions, looked up (permission-scoped) when the page was read."""
    router_ctx: Annotated[RouterCtx | None, keep_first("router_ctx")]
    """The routers' view: where the user is and which entry they used."""
    exec_ctx: Annotated[ExecCtx | None, keep_first("exec_ctx")]
    """The tools' view: the data selection, never the origin."""
    model_summary: Annotated[ModelSummary | None, keep_first("model_summary")]
    """The prompts' view: the page in words."""
    route: Route | None
    """The capability and slots, from the fast-path table or the router model (the route node)."""
    outcome: Outcome
    """What the capability ended with; respond makes it final."""


class RespondInput(TypedDict):
    route: NotRequired[Route | None]
    outcome: NotRequired[Outcome]
