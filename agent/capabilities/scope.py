"""Which project a request is about: one the user named, "here" on a project's page, or the page's own.

A named project resolves on the server against the user's own projects; one that does not resolve is
a question back, never a wider answer.
"""
from __future__ import annotations

from langgraph.runtime import Runtime

from agent.assembler.views import ExecCtx
from agent.assembler.words import quote_user_text
from agent.routing.decision import Slots
from agent.runtime import RunContext
from agent.tools.project_tools import project_by_name
from pm_assistant.errors import NotFound


class ScopeUnclear(Exception):
    """The request names a project that cannot be told apart; the message says why."""


def page_project_id(ctx: ExecCtx) -> int | None:
    """The project the page shows: its route's, else a selected project."""
    if ctx.route_params.project_id is not None:
        return ctx.route_params.project_id
    if ctx.selected_entity and ctx.selected_entity.type == "project":
        return ctx.selected_entity.id
    return None


def request_project_id(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots) -> int | None:
    """The project to answer for, or None for all the user's projects; raises ScopeUnclear."""
    if slots.project_name:
        try:
            runtime.context.tools.read("scope", "project_by_name", project_by_name, scope=lambda p: [p["id"]],
                                       name=slots.project_name)
        except NotFound as exc:
            raise ScopeUnclear(f"{exc.message} You asked about {quote_user_text(slots.project_name, 60)}; "
                               "which project do you mean?") from None
        project_id: int = runtime.context.tools.data("scope")["id"]
        return project_id
    if slots.scope == "project":
        project_id_here = page_project_id(ctx)
        if project_id_here is None:
            raise ScopeUnclear("This page shows no single project. Open the project, or name it in your request.")
        return project_id_here
    return ctx.route_params.project_id
