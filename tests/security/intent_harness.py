"""Send each labelled message as alice and see what it did: written at once, stopped at a card, or answered.

Two routers answer the routing call, both through the real openai SDK:
- ``offline``: the offline provider's rules (no stub involved);
- ``compromised``: the stub server answers every routing call with the write the message names,
  as a model that misses every "don't", "?" and "just kidding" would.

A message that asks for no write must leave the database as it was unless a card stopped it
(and nothing is approved here); a request must change exactly what it asked, at once, without a card.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db import transaction

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client
from tests.llm_stub import Completion, LLMStub

from .intent_corpus import CHANGES, MESSAGES, WRITES, Message

Suite = Literal["offline", "compromised"]
SUITES: tuple[Suite, ...] = ("offline", "compromised")
EMPTY_SLOTS: dict[str, Any] = {
    "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
    "scope": None, "project_name": None, "expected_title": None, "expected_status": None, "status_filter": [],
    "priority_filter": [], "assignee_me": False, "preset": None, "week": None,
}


@dataclass(frozen=True)
class Outcome:
    message: Message
    text: str
    status: str
    # Anything in the database changed (a task's fields, a task created or deleted).
    wrote: bool
    # The run stopped at a confirmation card.
    card: bool
    # The selected task now holds exactly the change the message asked for (and nothing else changed).
    as_asked: bool

    @property
    def unasked_write(self) -> bool:
        """A write that ran although the message asked for none: what must never happen."""
        return not self.message.asked and self.wrote

    @property
    def missed_request(self) -> bool:
        """A request that did not run at once as asked."""
        return self.message.asked and not (self.as_asked and not self.card)


def compromised_route(message: Message, task_id: int) -> dict[str, Any]:
    """The routing answer of a model that reads every named write as asked."""
    if message.kind == "decompose":
        return {"capability": "decompose", "confidence": 0.99, "slots": {**EMPTY_SLOTS, "scope": "selected"}}
    slots = {**EMPTY_SLOTS, **WRITES[message.kind]}
    if slots["operation"] != "create":
        slots["task_id"] = task_id
    return {"capability": "crud", "confidence": 0.99, "slots": slots}


def _snapshot() -> dict[int, tuple[Any, ...]]:
    return {row[0]: row[1:] for row in Task.objects.values_list("id", "title", "status", "priority", "due_date",
                                                                 "parent_id", "assignee_id")}


def run_message(alice: User, project: Project, message: Message, suite: Suite, stub: LLMStub | None) -> Outcome:
    """Send one message about a fresh task on its page; roll everything back afterwards."""
    with transaction.atomic():
        target = task_create(actor=alice, project=project, title="Fix login page", status="in_progress",
                             priority="P2", assignee=alice)
        text = message.render(target.pk)
        if suite == "compromised":
            assert stub is not None
            route = compromised_route(message, target.pk)
            stub.responder = lambda body: Completion(json.dumps(route))
        before = _snapshot()
        page = {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": target.pk},
                "routeParams": {"projectId": project.pk, "taskId": target.pk}}
        response = api_client(alice).post("/api/assistant/requests/", {"message": text, "page_context": page},
                                          format="json")
        assert response.status_code == 200, (text, response.status_code, response.content[:300])
        body = response.json()
        after = _snapshot()
        expected = dict(before)
        if message.asked:
            change = {k: (date.fromisoformat(v) if k == "due_date" else v) for k, v in CHANGES[message.kind].items()}
            title, status, priority, due, parent, assignee = before[target.pk]
            fields = {"status": status, "priority": priority, "due_date": due, **change}
            expected[target.pk] = (title, fields["status"], fields["priority"], fields["due_date"], parent, assignee)
        outcome = Outcome(message, text, body["status"], wrote=after != before,
                          card=body["status"] == "needs_confirmation", as_asked=after == expected)
        transaction.set_rollback(True)
    return outcome


def confusion(outcomes: list[Outcome]) -> dict[str, Any]:
    """The confusion figures: asked/not asked against written at once / not written."""
    asked = [o for o in outcomes if o.message.asked]
    unasked = [o for o in outcomes if not o.message.asked]
    return {
        "messages": len(outcomes),
        "asked_written_at_once": sum(not o.missed_request for o in asked),
        "asked_not_written": sum(o.missed_request for o in asked),
        "not_asked_written": sum(o.unasked_write for o in unasked),
        "not_asked_left_alone": sum(not o.unasked_write for o in unasked),
        "not_asked_answered": sum(not o.wrote and not o.card for o in unasked),
        "not_asked_card": sum(o.card for o in unasked),
        "by_group": dict(sorted(Counter(o.message.group for o in outcomes).items())),
    }


def confusion_lines(suite: str, figures: dict[str, Any]) -> list[str]:
    f = figures
    return [
        f"{suite}: {f['messages']} messages",
        f"  asked ({f['asked_written_at_once'] + f['asked_not_written']}): written at once "
        f"{f['asked_written_at_once']}, not written {f['asked_not_written']}",
        f"  not asked ({f['not_asked_written'] + f['not_asked_left_alone']}): written without a card "
        f"{f['not_asked_written']}, left alone {f['not_asked_left_alone']} (answered {f['not_asked_answered']}, "
        f"card {f['not_asked_card']})",
    ]


def run_corpus(alice: User, project: Project, suite: Suite, stub: LLMStub | None) -> list[Outcome]:
    return [run_message(alice, project, message, suite, stub) for message in MESSAGES]
