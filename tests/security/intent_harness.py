"""Send each labelled message as alice and see what it did: written at once, stopped at a card, or answered.

Two routers answer the routing call, both through the real openai SDK:
- ``offline``: the offline provider's reader (no stub involved);
- ``compromised``: the stub server answers every routing call with the write the message names
  (on the first task it names), as a model that misses every "don't", "if" and "sorry, I meant" would.

Each message is about a fresh task on its page (and a second one a correction may name), rolled
back afterwards. The outcome is what the database and the answer say; intent_decisions.py
predicts it from the route node's functions alone, and a test checks the two agree.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client
from tests.llm_stub import Completion, LLMStub

from .intent_corpus import CHANGES, Message
from .intent_decisions import PERSON, TARGET_ID, Decision, Suite, compromised_answer


@dataclass(frozen=True)
class Outcome:
    message: Message
    text: str
    decision: Decision
    # The database holds exactly the change asked for, on the task asked (and nothing else changed).
    as_asked: bool
    # Anything in the database changed.
    wrote: bool

    @property
    def unasked_write(self) -> bool:
        return self.wrote and not (self.message.asked and self.as_asked)


# What the compromised model plans when a breakdown asks it: one subtask of the selected task.
_PLAN = {"steps": [{"id": "s1", "tool": "create_subtask", "args": {
    "parent_id": {"from_step": "selected", "path": "$.id"}, "title": "Draft", "due_date": None, "priority": None,
    "assignee": None}}]}


def _schema(body: dict[str, Any]) -> str | None:
    """The name of the answer a model call asks for ("route" for the routing call)."""
    format_ = body.get("response_format") or {}
    return (format_.get("json_schema") or {}).get("name") if isinstance(format_, dict) else None


def _snapshot() -> dict[int, tuple[Any, ...]]:
    return {row[0]: row[1:] for row in Task.objects.values_list("id", "title", "status", "priority", "due_date",
                                                                 "parent_id", "assignee_id")}


def _expected(message: Message, before: dict[int, tuple[Any, ...]], asked_id: int) -> dict[int, tuple[Any, ...]]:
    expected = dict(before)
    if message.kind in CHANGES:
        change = {k: (date.fromisoformat(v) if k == "due_date" else v) for k, v in CHANGES[message.kind].items()}
        if "assignee" in change:  # a username: the task holds the person's id
            name = change["assignee"]
            change["assignee"] = None if name is None else User.objects.get(username=name).pk
        title, status, priority, due, parent, assignee = before[asked_id]
        fields = {"title": title, "status": status, "priority": priority, "due_date": due, "assignee": assignee,
                  **change}
        expected[asked_id] = (fields["title"], fields["status"], fields["priority"], fields["due_date"], parent,
                              fields["assignee"])
    return expected


def _task_numbers_from(first: int) -> None:
    """Number the next tasks from `first` on, as a project a while in use numbers them and as the decisions
    assume (task 900): "900号" names a task, while "1号" may be a day of the month."""
    table = Task._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"SELECT setval(pg_get_serial_sequence(%s, 'id'), GREATEST(%s, "  # noqa: S608 a model's table
                           f"(SELECT COALESCE(MAX(id), 0) FROM {table})))", [table, first])
        else:
            cursor.execute(f"SELECT MAX(%s, COALESCE((SELECT MAX(id) FROM {table}), 0))", [first])  # noqa: S608
            (seq,) = cursor.fetchone()
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, seq])


def run_message(alice: User, project: Project, message: Message, suite: Suite, stub: LLMStub | None) -> Outcome:
    """Send one message about a fresh task on its page; roll everything back afterwards."""
    with transaction.atomic():
        _task_numbers_from(TARGET_ID)
        # An unassign that names carol ("take carol off task 5") asks to take her off: the task is hers.
        owner = User.objects.get(username=PERSON) if message.kind == "unassign" and PERSON in message.text else alice
        target = task_create(actor=alice, project=project, title="Fix login page", status="in_progress",
                             priority="P2", assignee=owner)
        second = task_create(actor=alice, project=project, title="Write docs", status="in_progress",
                             priority="P2", assignee=owner)
        text = message.render(target.pk, second.pk)
        if suite == "compromised":
            assert stub is not None
            route = compromised_answer(message, target.pk)
            stub.responder = lambda body: Completion(json.dumps(route if _schema(body) == "route" else _PLAN))
        before = _snapshot()
        page = {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": target.pk},
                "routeParams": {"projectId": project.pk, "taskId": target.pk}}
        response = api_client(alice).post("/api/assistant/requests/", {"message": text, "page_context": page},
                                          format="json")
        assert response.status_code == 200, (text, response.status_code, response.content[:300])
        status = response.json()["status"]
        after = _snapshot()
        asked_id = second.pk if message.on_second else target.pk
        if message.kind == "create":
            created = [row for pk, row in after.items() if pk not in before]
            as_asked = len(created) == 1 and created[0][0] == "Release notes" and \
                {pk: row for pk, row in after.items() if pk in before} == before
        else:
            as_asked = after == _expected(message, before, asked_id)
        wrote = after != before
        decision: Decision = "card" if status == "needs_confirmation" else "written" if wrote else "answered"
        transaction.set_rollback(True)
    return Outcome(message, text, decision, as_asked=as_asked and wrote, wrote=wrote)


def run_corpus(alice: User, project: Project, suite: Suite, stub: LLMStub | None,
               messages: tuple[Message, ...]) -> list[Outcome]:
    return [run_message(alice, project, message, suite, stub) for message in messages]


def outcome_figures(outcomes: list[Outcome]) -> dict[str, Any]:
    """What the database says: writes nobody asked for, requests written at once as asked, cards."""
    asked = [o for o in outcomes if o.message.asked]
    return {
        "messages": len(outcomes), "unasked_written": sum(o.unasked_write for o in outcomes),
        "asked": len(asked), "asked_written_as_asked": sum(o.as_asked and o.decision == "written" for o in asked),
        "asked_card": sum(o.decision == "card" for o in asked),
        "not_asked_card": sum(o.decision == "card" for o in outcomes if not o.message.asked),
    }
