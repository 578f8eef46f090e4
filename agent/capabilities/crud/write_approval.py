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

from agent.capabilities.outcome import ask_approval, done, failed
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.state import Outcome
from agent.tools import project_tools, task_tools
from pm_assistant.markdown import literal, quoted

ACTION = "confirm_write"


def _values(changes: dict[str, Any]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in changes.items() if value is not None)


def _ask(runtime: Runtime[RunContext], route: Route, facts: dict[str, Any], change: str, *,
         undoable: bool) -> dict[str, Outcome] | None:
    """Pause for the user's decision; the outcome to end with, or None to go on with exactly this change.

    ``undoable`` tells the card whether Undo will be offered afterwards (updates yes, creates no).
    """
    intent = route.intent
    card = {**facts, "change": change, "undoable": undoable, "model_kind": intent.model_kind if intent else None,
            "rules_kind": intent.rules_kind if intent else None}
    decision = ask_approval(action=ACTION, facts=card,
                            question=f"Please confirm: {literal(change)}. Your message did not ask for this change "
                                     "in so many words, so nothing is changed until you approve.")
    if decision.get("decision") != "approve":
        return done("Cancelled: nothing was changed.", rejected=True)
    if decision.get("facts") != card:
        return failed("The task changed since you were asked, so nothing was changed. Please look at it again.",
                      "target_changed")
    return None


def approve_unasked_update(runtime: Runtime[RunContext], route: Route, task_id: int) -> dict[str, Outcome] | None:
    """Before an unasked update of one task: a card with the change and the task's facts from the database."""
    if not route.write_unasked:
        return None
    steps, slots = runtime.context.tools, route.slots
    # The same read as the update's own (crud._facts_with_mismatches), so the update reuses it.
    steps.read("facts", "task_facts", task_tools.task_facts, scope=lambda facts: [facts["project_id"]],
               task_id=task_id)
    facts = steps.data("facts")
    if not facts["can_write"]:
        return failed(f"You can see {quoted(facts['title'])} but not change it, so nothing was changed.", "forbidden")
    values = _values({"status": slots.status, "priority": slots.priority, "due_date": slots.due_date})
    return _ask(runtime, route, facts, f"Change {facts['key']} “{facts['title']}”: {values or 'nothing'}",
                undoable=True)


def approve_unasked_create(runtime: Runtime[RunContext], route: Route,
                           project_id: int | None) -> dict[str, Outcome] | None:
    """Before an unasked create: a card naming the new task and its project (None lets crud ask what is missing)."""
    slots = route.slots
    if not route.write_unasked or project_id is None or not slots.title:
        return None
    steps = runtime.context.tools
    steps.read("project", "project_facts", project_tools.project_facts, scope=lambda facts: [facts["project_id"]],
               project_id=project_id)
    changes = {"priority": slots.priority, "due_date": slots.due_date, "status": slots.status}
    facts = {**steps.data("project"), "title": slots.title, **{k: str(v) for k, v in changes.items() if v is not None}}
    values = _values(changes)
    change = f"Create the task “{slots.title}” in {facts['project']}" + (f" ({values})" if values else "")
    return _ask(runtime, route, facts, change, undoable=False)
