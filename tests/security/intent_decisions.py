"""What the route node decides for each corpus message, without a request: written at once, a card, or an answer.

The same functions the route node calls (the offline provider's route, the intent check), on the
message alone: fast enough to decide every generated message in a test. ``intent_harness.py``
sends messages through the whole app and the database, which is what the figures of
bench/intent_corpus.py count; a test checks that both agree on a sample.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from agent.llm.offline import rules_route
from agent.registry import BY_NAME
from agent.routing.decision import Route, Slots
from agent.routing.intent_check import checked_route

from .intent_corpus import WRITES, Message

Suite = Literal["offline", "compromised"]
SUITES: tuple[Suite, ...] = ("offline", "compromised")
Decision = Literal["written", "card", "answered"]
# Writes that ask on a card first whoever routes them: a delete, a breakdown's plan.
ALWAYS_CARD = ("delete", "decompose")
TARGET_ID, SECOND_ID = 900, 901


# The person the corpus's assignments name: an unassign that names them asks to take *them* off the task.
PERSON = "carol"
_ME = re.compile(r"\b(?:take|remove|drop|pull) me\b", re.IGNORECASE)


def named_slots(message: Message) -> dict[str, Any]:
    """The write's slots as the message names them (an unassign, with the person when it names one)."""
    slots = dict(WRITES[message.kind])
    if message.kind == "unassign":
        named = PERSON if PERSON in message.text.casefold() else "me" if _ME.search(message.text) else None
        slots["assignee"] = named
    return slots


def expected_kind(message: Message, task_id: int) -> str | None:
    """The write_kind the message asks for (or names), on the task it names."""
    if message.kind == "decompose":
        return "decompose"
    slots = named_slots(message)
    if slots["operation"] != "create":
        slots["task_id"] = task_id
    return BY_NAME["crud"].write_kind(Slots.model_validate(slots))


def compromised_answer(message: Message, task_id: int) -> dict[str, Any]:
    """The routing answer of a model that reads every named write as asked (on the first task named, or on
    the page's task when the message names none: "this task")."""
    named = {"task_id": task_id} if "{id}" in message.text else {}
    if message.kind == "decompose":
        return {"capability": "decompose", "confidence": 0.99, "slots": {"scope": "selected", **named}}
    slots = named_slots(message)
    if slots["operation"] != "create":
        slots.update(named or {"scope": "selected"})
    return {"capability": "crud", "confidence": 0.99, "slots": slots}


@dataclass(frozen=True)
class Decided:
    message: Message
    text: str
    decision: Decision
    kind: str | None  # the kind of write written or carded

    @property
    def asked_kind(self) -> str | None:
        return expected_kind(self.message, SECOND_ID if self.message.on_second else TARGET_ID)

    @property
    def as_asked(self) -> bool:
        return self.kind == self.asked_kind

    @property
    def unasked_write(self) -> bool:
        """Written at once, without a card, what the message did not ask for."""
        return self.decision == "written" and not (self.message.asked and self.as_asked)


def decide(message: Message, suite: Suite) -> Decided:
    text = message.render(TARGET_ID, SECOND_ID)
    raw = rules_route(text) if suite == "offline" else compromised_answer(message, TARGET_ID)
    slots = Slots.model_validate({k: v for k, v in raw["slots"].items() if v is not None})
    route = Route(capability=raw["capability"], via="llm_router", slots=slots, confidence=raw["confidence"])
    checked = checked_route(message=text, route=route)
    if checked.capability != route.capability:  # declined: clarify says nothing changed
        return Decided(message, text, "answered", None)
    route = checked
    # The page the message is typed on shows its task (as intent_harness.py sends it): "this task" is TARGET_ID.
    on_page = route.slots
    if on_page.scope == "selected" and on_page.task_id is None and on_page.operation != "create":
        on_page = on_page.model_copy(update={"task_id": TARGET_ID})
    kind = BY_NAME[route.capability].write_kind(on_page)
    if kind is None:
        return Decided(message, text, "answered", None)
    from agent.capabilities.common.task_keys import typed_numbers  # a model: imported once Django is set up

    if route.slots.task_id is not None and route.slots.task_id not in typed_numbers(text):
        # A task the user did not type ("2号" may be a day): the capability asks which task is meant.
        return Decided(message, text, "answered", None)
    assert route.intent is not None  # checked_route always sets it
    verdict = route.intent.verdict
    first_step_card = route.capability == "decompose" or route.slots.operation == "delete"
    return Decided(message, text, "written" if verdict == "agrees" and not first_step_card else "card", kind)


def figures(decided: list[Decided]) -> dict[str, Any]:
    """The goals' figures: unasked writes, and requests done at once or carded (as asked)."""
    asked = [d for d in decided if d.message.asked]
    unasked = [d for d in decided if not d.message.asked]
    # A delete or a breakdown always asks first: its card is how it is done.
    done = [d for d in asked if d.as_asked and (d.decision == "written" or d.decision == "card"
                                                and d.message.kind in ALWAYS_CARD)]
    # A card counts for a request only when it states the change asked for (a correction's first task does not).
    carded = [d for d in asked if d.decision == "card" and d.as_asked and d not in done]
    return {
        "messages": len(decided), "asked": len(asked), "not_asked": len(unasked),
        "unasked_written": sum(d.unasked_write for d in decided),
        "not_asked_card": sum(d.decision == "card" for d in unasked),
        "not_asked_answered": sum(d.decision == "answered" for d in unasked),
        "asked_done": len(done), "asked_card": len(carded),
        "asked_neither": len(asked) - len(done) - len(carded),
        "done_or_card_pct": round(100 * (len(done) + len(carded)) / max(1, len(asked)), 1),
        "done_pct": round(100 * len(done) / max(1, len(asked)), 1),
        "by_family": dict(sorted(Counter(d.message.group for d in decided).items())),
    }


def figure_lines(name: str, f: dict[str, Any]) -> list[str]:
    return [
        f"{name}: {f['messages']} messages",
        f"  not asked ({f['not_asked']}): written without a card {f['unasked_written']}, card {f['not_asked_card']}, "
        f"answered {f['not_asked_answered']}",
        f"  asked ({f['asked']}): done {f['asked_done']} ({f['done_pct']}%), card {f['asked_card']}, done or card "
        f"{f['done_or_card_pct']}%, neither {f['asked_neither']}",
    ]


if __name__ == "__main__":  # a quick look while developing: python -m tests.security.intent_decisions tuned
    import os
    import sys

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")
    django.setup()
    from .intent_corpus import corpus

    split = sys.argv[1] if len(sys.argv) > 1 else "tuned"
    for suite in ("offline", "compromised"):
        decided = [decide(m, suite) for m in corpus(split)]  # type: ignore[arg-type]
        print(suite, json.dumps(figures(decided)))
        if "-v" in sys.argv:
            for d in decided:
                bad = d.unasked_write or d.message.asked and not (d.as_asked and d.decision != "answered")
                if bad:
                    print(f"  {d.message.group:11} asked={d.message.asked!s:5} {d.decision:8} {d.kind} | {d.text}")
