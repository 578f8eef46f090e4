"""The task, the plan's steps and what happened, said in words (for the planner and the card)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from agent.assembler.words import STATUS_WORDS, quote_user_text

from .plan import SELECTED, PlanStep
from .registry import PLAN_TOOLS

DESCRIPTION_MAX = 600
SUBTASKS_SHOWN = 10


def _day(value: str | date | None) -> str:
    if value is None:
        return "no due date"
    day = value if isinstance(value, date) else date.fromisoformat(value)
    return f"{day:%B %-d, %Y}"


def brief_words(brief: Mapping[str, Any], *, today: date) -> str:
    """The parent task's facts as sentences: no ids, user text quoted and cleaned."""
    who = f"assigned to {quote_user_text(brief['assignee_name'], 40)}" if brief["assignee_name"] else "unassigned"
    due = f"due {_day(brief['due_date'])}" if brief["due_date"] else "no due date"
    lines = [f"Task {quote_user_text(brief['title'], 120)}: {STATUS_WORDS[brief['status']]}, priority "
             f"{brief['priority']}, {due}, {who}."]
    if brief["description"].strip():
        lines.append(f"Description: {quote_user_text(brief['description'], DESCRIPTION_MAX)}")
    titles = brief["subtask_titles"][:SUBTASKS_SHOWN]
    lines.append("Existing subtasks: " + (", ".join(quote_user_text(t) for t in titles) if titles else "none") + ".")
    people = ", ".join(f"{m['username']} ({quote_user_text(m['name'], 40)})" for m in brief["members"])
    lines.append(f"Project members: {people}.")
    lines.append(f"Today is {_day(today)}.")
    return "\n".join(lines)


def target_words(binding: Mapping[str, Any]) -> str:
    source = binding.get("from_step")
    return "the selected task" if source == SELECTED else f"the subtask from step {source}"


def step_words(step: PlanStep, names: Mapping[str, str]) -> str:
    """One step as a sentence: what it does and to which task, people by name."""
    args = step.args
    if step.tool == "create_subtask":
        extras = [f"due {_day(args['due_date'])}" if args.get("due_date") else "",
                  f"priority {args['priority']}" if args.get("priority") else "",
                  f"assigned to {names.get(args['assignee'], args['assignee'])}" if args.get("assignee") else ""]
        tail = "".join(f", {e}" for e in extras if e)
        return f"Create subtask {quote_user_text(args['title'], 120)} under {target_words(args['parent_id'])}{tail}"
    target = target_words(args["task_id"])
    if step.tool == "set_due_date":
        return f"Set the due date of {target} to {_day(args['due_date'])}"
    if step.tool == "assign":
        return f"Assign {target} to {names.get(args['assignee'], args['assignee'])}"
    if step.tool == "set_priority":
        return f"Set the priority of {target} to {args['priority']}"
    return f"{PLAN_TOOLS[step.tool].description} ({target})"


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
