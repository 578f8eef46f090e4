"""The card for a write the user's words did not ask for: the router model chose it, the rules did not read it.

A model-routed create or update runs at once only when the intent check agreed
(``Route.write_unasked``, agent/routing/intent_check.py); otherwise it stops here with a card that
states the change. The node runs again when the user decides, so the card's facts are read again
and compared with the ones the user saw: approval applies exactly that change, rejection writes
nothing. A bulk update uses the bulk card instead (crud._update_visible).
"""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import ask_approval, done, failed
from agent.language import Language
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.state import Outcome
from agent.tools import project_tools, task_tools
from pm_assistant.markdown import literal, quoted

from .answers import TEXTS, status_label

ACTION = "confirm_write"


def _values(changes: dict[str, Any], language: Language) -> str:
    words = TEXTS[language]
    return words["join"].join(
        words["value"].format(name=words[f"name_{name}"],
                              value=status_label(value, language) if name == "status" and language == "zh" else value)
        for name, value in changes.items() if value is not None)


def _ask(runtime: Runtime[RunContext], route: Route, facts: dict[str, Any], change: str, *,
         undoable: bool, language: Language) -> dict[str, Outcome] | None:
    """Pause for the user's decision; the outcome to end with, or None to go on with exactly this change.

    ``undoable`` tells the card whether Undo will be offered afterwards (updates yes, creates no).
    """
    intent, words = route.intent, TEXTS[language]
    card = {**facts, "change": change, "undoable": undoable, "model_kind": intent.model_kind if intent else None,
            "rules_kind": intent.rules_kind if intent else None}
    decision = ask_approval(action=ACTION, facts=card, question=words["confirm_unasked"].format(change=literal(change)))
    if decision.get("decision") != "approve":
        return done(words["cancelled_one"], rejected=True)
    if decision.get("facts") != card:
        return failed(words["task_changed"], "target_changed")
    return None


def approve_unasked_update(runtime: Runtime[RunContext], route: Route, task_id: int,
                           language: Language = "en") -> dict[str, Outcome] | None:
    """Before an unasked update of one task: a card with the change and the task's facts from the database."""
    if not route.write_unasked:
        return None
    steps, slots, words = runtime.context.tools, route.slots, TEXTS[language]
    # The same read as the update's own (crud._facts_with_mismatches), so the update reuses it.
    steps.read("facts", "task_facts", task_tools.task_facts, scope=lambda facts: [facts["project_id"]],
               task_id=task_id)
    facts = steps.data("facts")
    if not facts["can_write"]:
        return failed(words["cannot_change"].format(title=quoted(facts["title"])), "forbidden")
    values = _values({"status": slots.status, "priority": slots.priority, "due_date": slots.due_date}, language)
    change = words["change_update"].format(key=facts["key"], title=facts["title"], values=values or words["no_values"])
    return _ask(runtime, route, facts, change, undoable=True, language=language)


def approve_unasked_create(runtime: Runtime[RunContext], route: Route, project_id: int | None,
                           language: Language = "en") -> dict[str, Outcome] | None:
    """Before an unasked create: a card naming the new task and its project (None lets crud ask what is missing)."""
    slots, words = route.slots, TEXTS[language]
    if not route.write_unasked or project_id is None or not slots.title:
        return None
    steps = runtime.context.tools
    steps.read("project", "project_facts", project_tools.project_facts, scope=lambda facts: [facts["project_id"]],
               project_id=project_id)
    changes = {"priority": slots.priority, "due_date": slots.due_date, "status": slots.status}
    facts = {**steps.data("project"), "title": slots.title, **{k: str(v) for k, v in changes.items() if v is not None}}
    values = _values(changes, language)
    change = words["change_create"].format(title=slots.title, project=facts["project"],
                                           values=words["create_values"].format(values=values) if values else "")
    return _ask(runtime, route, facts, change, undoable=False, language=language)
