"""what_next: rank the user's open tasks on the server → the first five with their reasons → the moves that follow.

The ranking is reports.next_up's stated score, computed from the database and the server's date; the
answer is a template in the language of the request (no model writes it), so a quick button makes no
model call and a typed question only the router's.
"""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.assembler.views import ExecCtx
from agent.capabilities.common.outcome import clarify, done, failed
from agent.capabilities.common.scope import ScopeUnclear, request_project_id
from agent.capabilities.common.task_links import open_tasks_url, reassign_url
from agent.language import language_of
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.tools.report_tools import report_scope
from pm_assistant.dates import date_shown
from pm_assistant.errors import ApplicationError
from reports.scope import ALL_PROJECTS

from .prompts import WORDS, next_up_text, reason
from .tools import next_up_read


class WhatNextInput(TypedDict):
    """The state this node reads: the graph hands it nothing else."""

    message: str
    exec_ctx: ExecCtx
    route: Route


def what_next(state: WhatNextInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Rank the user's open tasks in the page's project (or all their projects) and name the first five."""
    ctx, steps = state["exec_ctx"], runtime.context.tools
    language = language_of(state.get("message"))
    try:
        project_id = request_project_id(runtime, ctx, state["route"].slots, language)
    except ScopeUnclear as exc:
        return clarify(str(exc))
    try:
        scope = report_scope(steps.user, project_id)
    except ApplicationError as exc:
        return failed(f"The ranking could not start: {exc.message}", exc.code)
    runtime.context.recorder.node("what_next_rank", scope=scope.label, projects=len(scope.project_ids))
    steps.read("s1", "next_up", next_up_read, scope=lambda _: list(scope.project_ids), project_id=project_id)
    result = steps.data("s1")
    rows, words = result["items"], WORDS[language]
    # The day in answers as the pages write dates; the data keeps the ISO day.
    shown_today = date_shown(result["today"])
    reply = next_up_text(rows, open_tasks=result["open_tasks"], today=shown_today, scope=scope.label,
                         language=language)
    label = words["all"] if scope.label == ALL_PROJECTS else scope.label
    moves = [{"label": words["open_list"], "url": open_tasks_url(assignee="me", project_id=scope.project_id)}]
    if rows:
        moves.append({"label": words["reassign"].format(key=rows[0]["key"]),
                      "url": reassign_url(rows[0]["id"])})
    return done(reply, what_next={
        "today": result["today"], "open_tasks": result["open_tasks"], "scope": scope.label,
        "top": [{**row, "why": reason(row["parts"], language)} for row in rows],
        "looked_at": words["looked_at"].format(open=result["open_tasks"], scope=label, today=shown_today),
        "moves": moves, "moves_label": words["moves"]})
