"""Which project a request is about: one the user named, "here" on a project's page, or the page's own.

A named project resolves on the server against the user's own projects; one that does not resolve is
a question back, never a wider answer. `request_covers` goes on to the projects the answer reads, checked
against the user's memberships.
"""
from __future__ import annotations

from dataclasses import dataclass

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import clarify, failed
from agent.context.three_views import ExecCtx
from agent.context.words import quote_user_text
from agent.routing.decision import Slots
from agent.runtime import RunContext
from agent.state import Outcome
from agent.tools.project_tools import ProjectNameUnclear, project_by_name
from agent.tools.report_tools import report_scope
from agent.words.language import Language, in_each_language
from pm_assistant.errors import ApplicationError
from reports.scope import ALL_PROJECTS, ReportScope


class ScopeUnclear(Exception):
    """The request names a project that cannot be told apart; the message says why."""


WORDS = in_each_language(
    en={"none": "None of your projects has that name.", "several": "Several of your projects match: {names}.",
        "names_join": ", ", "which": "{why} You asked about {name}; which project do you mean?",
        "no_project_here": "This page shows no single project. Open the project, or name it in your request."},
    zh={"none": "你的项目中没有叫这个名字的。", "several": "你的多个项目都符合：{names}。",
        "names_join": "、", "which": "{why}你问的是 {name}；是指哪个项目？",
        "no_project_here": "这个页面没有对应单个项目。请打开那个项目，或在请求中写出它的名字。"},
)


def page_project_id(ctx: ExecCtx) -> int | None:
    """The project the page shows: its route's, else a selected project."""
    if ctx.route_params.project_id is not None:
        return ctx.route_params.project_id
    if ctx.selected_entity and ctx.selected_entity.type == "project":
        return ctx.selected_entity.id
    return None


def request_project_id(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots,
                       language: Language = "en") -> int | None:
    """The project to answer for, or None for all the user's projects; raises ScopeUnclear, whose message
    is in the language of the request."""
    words = WORDS[language]
    if slots.project_name:
        try:
            runtime.context.tools.read("scope", "project_by_name", project_by_name, scope=lambda p: [p["id"]],
                                       name=slots.project_name)
        except ProjectNameUnclear as exc:
            names = words["names_join"].join(quote_user_text(name, 60) for name in exc.candidates)
            why = words["several"].format(names=names) if exc.candidates else words["none"]
            raise ScopeUnclear(words["which"].format(why=why, name=quote_user_text(slots.project_name, 60))) from None
        # The id comes from the server's lookup and reaches later tools as a binding (audit point 1).
        project_id: int = runtime.context.tools.bind_lookup("scope", "project_id", "$.id")
        return project_id
    if slots.scope == "project":
        project_id_here = page_project_id(ctx)
        if project_id_here is None:
            raise ScopeUnclear(words["no_project_here"])
        return project_id_here
    return ctx.route_params.project_id


@dataclass(frozen=True)
class Covered:
    """The projects a request covers: the one it asked about (None: all the user's), and their checked scope."""

    project_id: int | None  # as the request gave it: a named project's id is its lookup's binding
    scope: ReportScope

    def label(self, all_projects: str) -> str:
        """The scope's name for the reader: its project's, or `all_projects` (in the reply's language) for all."""
        return all_projects if self.scope.label == ALL_PROJECTS else self.scope.label


def request_covers(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots, language: Language, *,
                   node: str, refused: str) -> Covered | dict[str, Outcome]:
    """The projects the request covers, recorded on the trace as `node`; else the outcome to return: a
    question back when the project is unclear, or `refused` with the reason when the user may not read it."""
    try:
        project_id = request_project_id(runtime, ctx, slots, language)
    except ScopeUnclear as exc:
        return clarify(str(exc))
    try:
        scope = report_scope(runtime.context.tools.user, project_id)
    except ApplicationError as exc:
        return failed(f"{refused}: {exc.message}", exc.code)
    runtime.context.recorder.node(node, scope=scope.label, projects=len(scope.project_ids))
    return Covered(project_id, scope)
