"""The task, the plan's steps and what happened, said in words (for the planner and the card)."""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import date
from typing import Any

from django.conf import settings

from agent.capabilities.decompose.plan_tools import PLAN_TOOLS
from agent.context.words import STATUS_WORDS, quote_user_text
from agent.words.language import Language

from .answers import TEXTS
from .plan import SELECTED, PlanStep

SUBTASKS_SHOWN = 10


def _day(value: str | date | None) -> str:
    if value is None:
        return "no due date"
    day = value if isinstance(value, date) else date.fromisoformat(value)
    return f"{day:%B %-d, %Y}"


def brief_words(brief: Mapping[str, Any], *, today: date, description: str = "",
                stored_apart: Collection[str] = ()) -> str:
    """The parent task's facts as sentences: no ids, user text quoted and cleaned.

    An inline description is said whole (it is within the inline limit); a description or subtasks
    ``stored_apart`` are named here and stand in the prompt as their summaries (material.py).
    """
    who = f"assigned to {quote_user_text(brief['assignee_name'], 40)}" if brief["assignee_name"] else "unassigned"
    due = f"due {_day(brief['due_date'])}" if brief["due_date"] else "no due date"
    lines = [f"Task {quote_user_text(brief['title'], 120)}: {STATUS_WORDS[brief['status']]}, priority "
             f"{brief['priority']}, {due}, {who}."]
    if "description" in stored_apart:
        lines.append("Description: long, so it is stored apart: its summary follows; look into it with the tools.")
    elif description.strip():
        lines.append(f"Description: {quote_user_text(description, settings.ARTIFACT_INLINE_MAX_CHARS)}")
    if "subtasks" in stored_apart:
        lines.append(f"Existing subtasks: {brief['subtask_count']} in all, stored apart: their summary follows; "
                     "search them with the tools before proposing one.")
    else:
        titles = brief["subtask_titles"][:SUBTASKS_SHOWN]
        lines.append("Existing subtasks: " + (", ".join(quote_user_text(t) for t in titles) if titles else "none")
                     + ".")
    people = ", ".join(f"{m['username']} ({quote_user_text(m['name'], 40)})" for m in brief["members"])
    lines.append(f"Project members: {people}.")
    lines.append(f"Today is {_day(today)}.")
    return "\n".join(lines)


def target_words(binding: Mapping[str, Any], language: Language = "en") -> str:
    source = binding.get("from_step")
    words = TEXTS[language]
    return words["selected"] if source == SELECTED else words["from_step"].format(step=source)


def step_words(step: PlanStep, names: Mapping[str, str], language: Language = "en") -> str:
    """One step as a sentence, in the language of the request: what it does and to which task, people by name."""
    args, words = step.args, TEXTS[language]

    def day(value: str | date) -> str:
        return words["day"].format(day=value if isinstance(value, date) else date.fromisoformat(value))

    def person(username: str) -> str:
        return names.get(username, username)

    if step.tool == "create_subtask":
        extras = [words["due"].format(day=day(args["due_date"])) if args.get("due_date") else "",
                  words["priority"].format(priority=args["priority"]) if args.get("priority") else "",
                  words["assigned"].format(name=person(args["assignee"])) if args.get("assignee") else ""]
        tail = "".join(words["extra"].format(extra=e) for e in extras if e)
        return words["create"].format(title=quote_user_text(args["title"], 120),
                                      target=target_words(args["parent_id"], language), tail=tail)
    target = target_words(args["task_id"], language)
    if step.tool == "set_due_date":
        return words["set_due_date"].format(target=target, day=day(args["due_date"]))
    if step.tool == "assign":
        return words["assign"].format(target=target, name=person(args["assignee"]))
    if step.tool == "set_priority":
        return words["set_priority"].format(target=target, priority=args["priority"])
    return words["other"].format(what=PLAN_TOOLS[step.tool].description, target=target)


def report_words(log: Sequence[Mapping[str, Any]]) -> str:
    """What ran so far, step by step, as words for the replanner: done, failed or skipped, and why."""
    lines = []
    for entry in log:
        what = entry["words"]
        if entry["status"] == "done":
            lines.append(f"- {entry['step']}: done. {what}.")
        else:
            lines.append(f"- {entry['step']}: {entry['status']}. {what}. Why: {entry['reason']}")
    return "\n".join(lines)
