"""The card for a write the user's words did not ask for: the router model chose it, the rules did not read it.

A model-routed create or update runs at once only when the intent check agreed
(``Route.write_unasked``); otherwise it stops here with a card that states the change. The
node runs again when the user decides, so the card's facts are read again and compared with the
ones the user saw: approval applies exactly that change, rejection writes nothing.
"""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.state import Outcome

from .outcome import ask_approval, done, failed

ACTION = "confirm_write"


def change_words(*, operation: str, facts: dict[str, Any], changes: dict[str, Any]) -> str:
    """The change in a sentence, from the route's values and the database's names."""
    values = ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in changes.items() if value is not None)
    if operation == "create":
        return f"Create the task “{facts['title']}” in {facts['project']}" + (f" ({values})" if values else "")
    return f"Change {facts['key']} “{facts['title']}”: " + (values or "nothing")


def approve_unasked(runtime: Runtime[RunContext], route: Route, *, facts: dict[str, Any],
                    change: str) -> dict[str, Outcome] | None:
    """Pause for approval when the route's write was not asked for; the outcome to end with, or None to go on."""
    if not route.write_unasked:
        return None
    intent = route.intent
    card = {**facts, "change": change, "model_kind": intent.model_kind if intent else None,
            "rules_kind": intent.rules_kind if intent else None}
    decision = ask_approval(action=ACTION, facts=card,
                            question=f"Please confirm: {change}. Your message did not ask for this change in so "
                                     "many words, so nothing is changed until you approve.")
    if decision.get("decision") != "approve":
        return done("Cancelled: nothing was changed.", rejected=True)
    if decision.get("facts") != card:
        return failed("The task changed since you were asked, so nothing was changed. Please look at it again.",
                      "target_changed")
    return None
