"""The card for a write the user's words did not ask for: the router model chose it, the rules did not read it.

A model-routed create or update runs at once only when the intent check agreed
(``Route.write_unasked``, agent/routing/intent_check.py); otherwise it stops here with a card that
states the change. The node runs again when the user decides, so the card's facts are read again
and compared with the ones the user saw: approval applies exactly that change, rejection writes
nothing. A bulk update uses the bulk card instead (crud._update_visible).

A model-routed update whose expected_title or expected_status disagrees with the task's facts in
the database stops on the same card, which states the mismatch (facts first: the router was shown
those facts, agent/graph/route.py); the database decides what the card shows and what is changed.
"""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import ask_approval, done, failed
from agent.models import Alert
from agent.routing.decision import Route, Slots
from agent.runtime import RunContext
from agent.state import Outcome
from agent.tools import project_tools, task_tools
from agent.words.language import Language
from pm_assistant.markdown import literal, quoted

from .answers import TEXTS, status_label

ACTION = "confirm_write"


def _values(changes: dict[str, Any], language: Language) -> str:
    words = TEXTS[language]
    return words["join"].join(
        words["value"].format(name=words[f"name_{name}"],
                              value=status_label(value, language) if name == "status" and language == "zh" else value)
        for name, value in changes.items() if value is not None)


def mismatches_noted(runtime: Runtime[RunContext], task_id: int, facts: dict[str, Any],
                     slots: Slots) -> list[dict[str, str]]:
    """Compare what the model stated (expected_*) with the database's facts; an alert for each difference."""
    found = task_tools.compare_expected(facts=facts, expected_title=slots.expected_title,
                                        expected_status=slots.expected_status)
    for m in found:
        runtime.context.recorder.alert(
            Alert.Kind.FACT_MISMATCH, f"The model said {m.field} is {m.stated!r}; the database says {m.actual!r}. "
            "The database decides.", key=f"{task_id}:{m.field}", field=m.field, stated=m.stated, actual=m.actual)
    return [{"field": m.field, "stated": m.stated, "actual": m.actual} for m in found]


def mismatch_words(mismatches: list[dict[str, str]], language: Language) -> str:
    """The differences as a sentence for the card ("" when there are none)."""
    if not mismatches:
        return ""
    words = TEXTS[language]
    items = words["mismatch_join"].join(
        words["mismatch_item"].format(field=m["field"], stated=quoted(m["stated"]), actual=quoted(m["actual"]))
        for m in mismatches)
    return str(words["mismatch"].format(items=items))


def _ask(runtime: Runtime[RunContext], route: Route, facts: dict[str, Any], change: str, *,
         undoable: bool, language: Language, mismatch: str = "") -> dict[str, Outcome] | None:
    """Pause for the user's decision; the outcome to end with, or None to go on with exactly this change.

    ``undoable`` tells the card whether Undo will be offered afterwards (updates yes, creates no);
    ``mismatch`` states how the model's stated facts differ from the database's.
    """
    intent, words = route.intent, TEXTS[language]
    card = {**facts, "change": change, "undoable": undoable, "model_kind": intent.model_kind if intent else None,
            "rules_kind": intent.rules_kind if intent else None, **({"proposed": True} if route.proposed else {})}
    # A change the server proposed (an answer's move) says so; one the model read, that the words did not ask it.
    asked = "confirm_proposed" if route.proposed else "confirm_unasked"
    question = words["confirm_mismatch"].format(change=literal(change), mismatch=mismatch) if mismatch \
        else words[asked].format(change=literal(change))
    decision = ask_approval(action=ACTION, facts=card, question=question)
    if decision.get("decision") != "approve":
        return done(words["cancelled_one"], rejected=True)
    if decision.get("facts") != card:
        return failed(words["task_changed"], "target_changed")
    return None


def approve_unasked_update(runtime: Runtime[RunContext], route: Route, task_id: int,
                           language: Language = "en", *, changes: dict[str, Any] | None = None
                           ) -> dict[str, Outcome] | None:
    """Before an unasked update of one task, or a model-routed one whose stated facts disagree with the
    database: a card with the change (and the mismatch) and the task's facts from the database.
    ``changes`` are the values the card states (an assign's person, a rename's title), by default the
    slots' status, priority and due date."""
    slots = route.slots
    stated = route.via == "llm_router" and (slots.expected_title is not None or slots.expected_status is not None)
    if not route.write_unasked and not stated:
        return None
    steps, words = runtime.context.tools, TEXTS[language]
    # The same read as the update's own (crud._facts_with_mismatches), so the update reuses it.
    steps.read("facts", "task_facts", task_tools.task_facts, scope=lambda facts: [facts["project_id"]],
               task_id=task_id, subtasks=False)
    facts = steps.data("facts")
    mismatches = mismatches_noted(runtime, task_id, facts, slots) if stated else []
    if not route.write_unasked and not mismatches:
        return None
    if not facts["can_write"]:
        return failed(words["cannot_change"].format(title=quoted(facts["title"])), "forbidden")
    if changes is None:
        changes = {"status": slots.status, "priority": slots.priority, "due_date": slots.due_date}
    values = _values(changes, language)
    change = words["change_update"].format(key=facts["key"], title=facts["title"], values=values or words["no_values"])
    return _ask(runtime, route, {**facts, "mismatches": mismatches}, change, undoable=True, language=language,
                mismatch=mismatch_words(mismatches, language))


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
