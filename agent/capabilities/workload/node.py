"""workload: count open and overdue tasks per assignee on the server → the answer and a bar chart, each bar
linked to its filtered task list.

The counts come from the database (reports.workload). A person the message names is found among the
scope's assignees and members by name; a name that matches nobody is said, never guessed. The answer
is a template in the language of the request: a quick button makes no model call.
"""
from __future__ import annotations

import re
from typing import Any, TypedDict

from django.conf import settings
from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import done
from agent.capabilities.common.scope import Covered, request_covers
from agent.capabilities.common.task_links import open_tasks_url, report_url
from agent.context.three_views import ExecCtx
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.words.language import language_of
from pm_assistant.dates import date_shown

from .prompts import WORDS, person_name, workload_text
from .reassign import reassign_move, reassign_proposal
from .tools import workload_read

# "carol's tasks", "分配给carol的任务": the name a message gives a person, to be found among the scope's people.
_POSSESSIVE = re.compile(r"(?<![\w.-])([\w][\w.-]{0,39})['’]s\b")
_ZH_ASSIGNED = re.compile(r"分配给\s*([^\s，。？?、的]{1,40})\s*的")
# Words before "'s" that name no one: contractions ("what's", "who's", "let's"). Any other word is a name,
# and one that matches nobody is said ("today's tasks": no one is named "today").
_NOT_NAMES = frozenset({"what", "who", "that", "it", "there", "here", "let", "he", "she", "where", "how", "when"})
BARS = 20  # the bars the chart draws; the answer counts the rest


def named_people(message: str, rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The people of the scope the message names (whole names, any case), and the names it gives nobody has."""
    text = message.lower()
    # Latin names match whole ("carol", not "caroline"); next to Chinese, which has no spaces, anywhere.
    found = [r for r in rows if r["name"] and re.search(
        rf"(?<![a-z0-9_.-]){re.escape(r['name'].lower())}(?![a-z0-9_-])", text)]
    known = {r["name"].lower() for r in found}
    given = [m.group(1) for m in (*_POSSESSIVE.finditer(message), *_ZH_ASSIGNED.finditer(message))]
    return found, [name for name in dict.fromkeys(given) if name.lower() not in known | _NOT_NAMES]


def chart(rows: list[dict[str, Any]], *, project_id: int | None, focus: dict[str, Any] | None,
          words: dict[str, str], language: str) -> list[dict[str, Any]]:
    """One bar per person (open tasks, the overdue part drawn darker), each with the list behind it."""
    top = max((r["open"] for r in rows), default=0) or 1
    return [{"name": person_name(r, language), "open": r["open"], "overdue": r["overdue"],
             "open_pct": round(100 * r["open"] / top), "late_share": round(100 * r["overdue"] / (r["open"] or 1)),
             "focus": r is focus, "overloaded": r["overloaded"],
             "label": words["bar"].format(name=person_name(r, language), open=r["open"], overdue=r["overdue"]),
             "url": open_tasks_url(assignee=r["id"], project_id=project_id) if r["id"] is not None else None}
            for r in rows[:BARS]]


class WorkloadInput(TypedDict):
    """The state this node reads: the graph hands it nothing else."""

    message: str
    exec_ctx: ExecCtx
    route: Route


def workload(state: WorkloadInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Count the open and overdue tasks per person in the page's project (or all the user's projects)."""
    steps, message = runtime.context.tools, state.get("message") or ""
    language = language_of(message)
    covered = request_covers(runtime, state["exec_ctx"], state["route"].slots, language, node="workload_count",
                             refused="The workload could not be counted")
    if not isinstance(covered, Covered):
        return covered
    scope = covered.scope
    steps.read("s1", "workload", workload_read, scope=lambda _: list(scope.project_ids), project_id=covered.project_id)
    result = steps.data("s1")
    rows, words = result["items"], WORDS[language]
    found, unknown = named_people(message, rows)
    focus = found[0] if len(found) == 1 else None
    runtime.context.recorder.node("workload_person", named=[r["name"] for r in found], unknown=unknown)
    label = covered.label(words["all"])
    reply = workload_text(rows, result=result, scope=scope.label, language=language, person=focus, unknown=unknown,
                          ratio=settings.RISK_LOAD_RATIO)
    first = focus or next((r for r in rows if r["id"] is not None and r["open"]), None)
    moves = [{"label": words["list_of"].format(name=first["name"]),
              "url": open_tasks_url(assignee=first["id"], project_id=scope.project_id)}] if first else []
    moves.append({"label": words["report"], "url": report_url(project_id=scope.project_id)})
    heavy = next((r for r in rows if r["overloaded"] and r["id"] is not None and r["open"]), None)
    reassign = None
    if heavy is not None:
        steps.read("s2", "reassign_proposal", reassign_proposal, scope=lambda r: [i["project_id"] for i in r["items"]],
                   person_id=heavy["id"], project_ids=list(scope.project_ids), today=result["today"])
        proposal = steps.data("s2")["items"]
        reassign = reassign_move(proposal[0], language) if proposal else None
    return done(reply, workload={
        "today": result["today"], "scope": scope.label, "open_tasks": result["open_tasks"],
        "overdue_tasks": result["overdue_tasks"], "person": focus["name"] if focus else None,
        "bars": chart(rows, project_id=scope.project_id, focus=focus, words=words, language=language),
        "more": max(0, len(rows) - BARS), "chart_label": words["chart"].format(scope=label),
        "bar_hint": words["bar_hint"], "no_list": words["no_list"],
        "legend": {"open": words["legend_open"], "overdue": words["legend_overdue"]},
        "looked_at": words["looked_at"].format(open=result["open_tasks"], scope=label,
                                               today=date_shown(result["today"])),
        "moves": moves, "moves_label": words["moves"], "reassign": reassign})
