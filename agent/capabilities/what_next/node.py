"""what_next: rank the user's open tasks on the server → the first five with their reasons → the moves that follow.

The ranking is reports.next_up's stated score, computed from the database and the server's date; the
answer is a template in the language of the request (no model writes it), so a quick button makes no
model call and a typed question only the router's.
"""
from __future__ import annotations

from typing import Any, TypedDict

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import done
from agent.capabilities.common.scope import Covered, request_covers
from agent.capabilities.common.task_links import open_tasks_url, reassign_url
from agent.context.three_views import ExecCtx
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.words.language import language_of
from pm_assistant.dates import date_shown

from .prompts import WORDS, next_up_text, reason
from .tools import next_up_read


class WhatNextInput(TypedDict):
    """The state this node reads: the graph hands it nothing else."""

    message: str
    exec_ctx: ExecCtx
    route: Route


def what_next(state: WhatNextInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Rank the user's open tasks in the page's project (or all their projects) and name the first five."""
    steps, language = runtime.context.tools, language_of(state.get("message"))
    covered = request_covers(runtime, state["exec_ctx"], state["route"].slots, language, node="what_next_rank",
                             refused="The ranking could not start")
    if not isinstance(covered, Covered):
        return covered
    scope = covered.scope
    steps.read("s1", "next_up", next_up_read, scope=lambda _: list(scope.project_ids), project_id=covered.project_id)
    result = steps.data("s1")
    rows, words = result["items"], WORDS[language]
    # The day in answers as the pages write dates; the data keeps the ISO day.
    shown_today = date_shown(result["today"])
    reply = next_up_text(rows, open_tasks=result["open_tasks"], today=shown_today, scope=scope.label,
                         language=language)
    label = covered.label(words["all"])
    moves = [{"label": words["open_list"], "url": open_tasks_url(assignee="me", project_id=scope.project_id)}]
    if rows:
        moves.append({"label": words["reassign"].format(key=rows[0]["key"]),
                      "url": reassign_url(rows[0]["id"])})
    return done(reply, what_next={
        "today": result["today"], "open_tasks": result["open_tasks"], "scope": scope.label,
        "top": [{**row, "why": reason(row["parts"], language)} for row in rows],
        "looked_at": words["looked_at"].format(open=result["open_tasks"], scope=label, today=shown_today),
        "moves": moves, "moves_label": words["moves"]})
