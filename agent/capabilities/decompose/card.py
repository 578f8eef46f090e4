"""The plan card: the plan as the user will get it, and the parent's facts read from the database just now."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent.capabilities.decompose.plan_tools import PLAN_TOOLS
from agent.tools.task_tools import compare_expected
from agent.words.language import Language

from .plan import SELECTED, Plan
from .words import step_words

# The parent's facts the card shows and the re-check after approval compares.
PARENT_FACTS = ("task_id", "key", "title", "status", "priority", "due_date", "assignee_name", "project",
                "subtask_count", "subtask_titles", "subtasks_digest", "updated_at")


def member_names(brief: Mapping[str, Any]) -> dict[str, str]:
    """Username → the name a person is shown by."""
    return {m["username"]: m["name"] for m in brief["members"]}


def card_steps(plan: Plan, names: Mapping[str, str], language: Language = "en") -> list[dict[str, Any]]:
    """Each step as the card lists it: order, words (in the request's language), and the planned fields with
    people by name."""
    rows = []
    for order, step in enumerate(plan, start=1):
        args = PLAN_TOOLS[step.tool].args.model_validate(step.args)
        assignee = getattr(args, "assignee", None)
        due = getattr(args, "due_date", None)
        rows.append({
            "id": step.id, "order": order, "tool": step.tool, "words": step_words(step, names, language),
            "title": getattr(args, "title", None), "due_date": due.isoformat() if due else None,
            "priority": getattr(args, "priority", None),
            "assignee": names.get(assignee, assignee) if assignee else None,
            "under_selected": any(b.from_step == SELECTED for b in step.bindings().values()),
            "depends_on": sorted(step.sources()),
        })
    return rows


def card_mismatches(brief: Mapping[str, Any], plan: Plan) -> list[dict[str, str]]:
    """Checklist values of steps on the selected task that the database contradicts: those steps will stop."""
    found = []
    for step in plan:
        if PLAN_TOOLS[step.tool].changes_existing and step.args["task_id"].get("from_step") == SELECTED:
            for m in compare_expected(facts=dict(brief), expected_title=step.args.get("expected_title"),
                                      expected_status=step.args.get("expected_status")):
                found.append({"step": step.id, "field": m.field, "stated": m.stated, "actual": m.actual})
    return found


def card_facts(brief: Mapping[str, Any], plan: Plan, *, planner: str, revision: int,
               done: list[str], language: Language = "en") -> dict[str, Any]:
    """Everything the card shows; the same dict is read again after approval and must not have changed."""
    return {"parent": {name: brief[name] for name in PARENT_FACTS},
            "steps": card_steps(plan, member_names(brief), language),
            "count": len(plan.steps), "planner": planner, "revision": revision, "done": done,
            "mismatches": card_mismatches(brief, plan)}
