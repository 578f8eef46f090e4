"""The SQL a run costs: a trace in at most two INSERTs, a checkpoint only for a run that paused, quick
actions whose statement count does not grow with the data, and typed questions that cost their buttons'."""
from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from langgraph.runtime import Runtime
from rest_framework.test import APIClient

from agent.graph.checkpointer import checkpointer
from agent.graph.graph import CAPABILITY_NODES, build_graph
from agent.models import Run, TraceEvent
from agent.run.service import run_request
from agent.runtime import RunContext
from tasks.models import Task, TaskActivity
from tasks.services import task_create

TRACE_INSERT = f'INSERT INTO "{TraceEvent._meta.db_table}"'


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _post(client: APIClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/assistant/requests/", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _overdue(alice: Any, website: Any, count: int) -> None:
    past = timezone.localdate() - timedelta(days=3)
    Task.objects.bulk_create(Task(project=website, title=f"Late {i}", assignee=alice, due_date=past,
                                  created_by=alice) for i in range(count))


def _trace_inserts(captured: CaptureQueriesContext) -> int:
    return sum(q["sql"].startswith(TRACE_INSERT) for q in captured.captured_queries)


def _checkpoint_values(run_id: str) -> dict[str, Any]:
    with checkpointer() as saver:
        return build_graph(saver).get_state({"configurable": {"thread_id": run_id}}).values


OVERDUE = {"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}
# The same question typed; the tests run on the offline provider, whose router reads it as OVERDUE.
TYPED_OVERDUE = {"message": "show my overdue tasks", "page_context": {"page": "home", "origin": "sidebar"}}


def _row(task: Task, action: str) -> dict[str, Any]:
    return {"action": action, "page_context": {"page": "task_list", "origin": "task_row",
                                               "selectedEntity": {"type": "task", "id": task.pk}}}


def test_a_fast_path_query_writes_its_trace_in_one_insert_and_no_checkpoint(alice: Any, website: Any) -> None:
    _overdue(alice, website, 3)
    client = _client(alice)
    with CaptureQueriesContext(connection) as captured:
        run = _post(client, OVERDUE)
    assert run["status"] == "done" and run["data"]["count"] == 3
    assert _trace_inserts(captured) == 1
    assert _checkpoint_values(run["run_id"]) == {}
    trace = client.get(f"/api/assistant/runs/{run['run_id']}/trace/").json()
    seqs = [e["seq"] for e in trace["events"]]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= 3
    assert "query" in [n["name"] for n in trace["nodes"]]
    assert trace["tool_calls"][0]["name"] == "query_tasks"
    assert trace["audit"]["passed"], trace["audit"]


def test_a_run_that_pauses_is_checkpointed_and_traced_in_two_inserts(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Old draft")
    client = _client(alice)
    with CaptureQueriesContext(connection) as captured:
        asked = _post(client, _row(task, "delete_task"))
        assert asked["status"] == "needs_confirmation"
        assert _checkpoint_values(asked["run_id"]) != {}
        decided = client.post(f"/api/assistant/runs/{asked['run_id']}/confirm/", {"decision": "approve"},
                              format="json").json()
    assert decided["status"] == "done", decided
    assert not Task.objects.filter(pk=task.pk).exists()
    assert _trace_inserts(captured) == 2
    events = client.get(f"/api/assistant/runs/{asked['run_id']}/trace/").json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["name"] for e in events if e["kind"] == "tool_call"] == ["task_facts", "task_facts", "delete_task"]


def test_a_crashing_run_still_records_the_trace_it_had(monkeypatch: pytest.MonkeyPatch, alice: Any,
                                                       website: Any) -> None:
    def crashing(state: Any, runtime: Runtime[RunContext]) -> dict[str, Any]:
        runtime.context.recorder.node("before_the_crash", step=1)
        raise RuntimeError("boom")

    nodes = {**CAPABILITY_NODES, "query": crashing}
    monkeypatch.setattr("agent.graph.graph.compiled_graph", lambda: build_graph(nodes=nodes))
    run_request(user=alice, page_context=OVERDUE["page_context"], action="my_overdue")
    run = Run.objects.get()
    assert run.status == Run.Status.ERROR
    names = list(run.events.values_list("name", flat=True))
    assert names[-2:] == ["query", "before_the_crash"]
    assert list(run.events.values_list("seq", flat=True)) == list(range(1, len(names) + 1))


def _statements(client: APIClient, body: dict[str, Any]) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert _post(client, body)["status"] == "done"
    return [q["sql"] for q in captured.captured_queries]


def test_my_overdue_costs_the_same_statements_for_5_and_for_50_tasks(alice: Any, website: Any) -> None:
    client = _client(alice)
    _post(client, OVERDUE)  # warm: the session, content types and the like are read once
    _overdue(alice, website, 5)
    few = _statements(client, OVERDUE)
    _overdue(alice, website, 45)
    many = _statements(client, OVERDUE)
    assert len(few) == len(many), "\n".join(many)


def test_mark_done_costs_the_same_statements_for_any_task(alice: Any, website: Any) -> None:
    client = _client(alice)
    first, second, busy = (task_create(actor=alice, project=website, title=t) for t in ("One", "Two", "Busy"))
    _post(client, _row(first, "mark_done"))  # warm
    _overdue(alice, website, 40)
    for i in range(5):
        task_create(actor=alice, project=website, title=f"Sub {i}", parent=busy)
    quiet = _statements(client, _row(second, "mark_done"))
    loud = _statements(client, _row(busy, "mark_done"))
    assert len(quiet) == len(loud), "\n".join(loud)
    assert Task.objects.get(pk=busy.pk).status == "done"


_TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK", "BEGIN", "COMMIT")


def _data_statements(statements: list[str]) -> list[str]:
    return [sql for sql in statements if not sql.startswith(_TRANSACTION_CONTROL)]


def test_mark_done_reads_and_writes_only_what_it_needs(alice: Any, website: Any) -> None:
    """The row's Done button: one read that checks the page's ids and reads the summary's names, the
    conversation and the run, the facts (the task's own columns with the user's role, one join; an update
    reads no subtasks; one record, so no task-log revision for an index), the update (the project's lock,
    the locked read with project and assignee, the role, both activities in one INSERT, the row), the trace
    and the outcome (with its audit, the usage and when it wrote, in the same UPDATE). A run that commits
    once is seen by no one before it ends, so no stop can reach it: its write has no stop guard."""
    client = _client(alice)
    first, second = (task_create(actor=alice, project=website, title=t) for t in ("One", "Two"))
    _post(client, _row(first, "mark_done"))  # warm
    statements = _data_statements(_statements(client, _row(second, "mark_done")))
    assert len(statements) == 11, "\n".join(statements)
    assert not any(sql.startswith(f'SELECT MAX("{TaskActivity._meta.db_table}"."id")') for sql in statements), \
        "a task's facts are one record: nothing to index, so no revision read"
    runs = [sql for sql in statements if sql.startswith(f'UPDATE "{Run._meta.db_table}"')]
    assert len(runs) == 1 and '"wrote_at" = ' in runs[0], \
        "the run commits once, so no stop can reach it: no guard before the write; when it wrote goes with the outcome"
    facts = [sql for sql in statements if sql.startswith('SELECT "tasks_task"."id" AS "pk"') and ' AS "role"' in sql]
    assert len(facts) == 1 and "INNER JOIN \"projects_membership\"" in facts[0] and " IN (SELECT" not in facts[0], \
        "the facts: the task with the user's role in its project, the membership joined, no subquery"
    assert sum(sql.startswith('SELECT "tasks_task"."id" AS "pk"') for sql in statements) == 2, \
        "the page's ids are checked and named in one read; the facts in another"
    locks = [sql for sql in statements if sql.startswith('SELECT "projects_project"."id" AS "pk"')]
    assert len(locks) == 1, "the project's lock, taken first"
    assert connection.vendor != "postgresql" or locks[0].endswith("FOR NO KEY UPDATE")
    assert sum(sql.startswith(f'UPDATE "{Task._meta.db_table}"') for sql in statements) == 1
    assert not any(sql.startswith('SELECT "projects_membership"."project_id"') for sql in statements), \
        "the write permission is read with the task, not on its own"
    assert not any("WITH RECURSIVE" in sql for sql in statements), "an update does not read the subtree"
    assert sum(sql.startswith('INSERT INTO "tasks_taskactivity"') for sql in statements) == 1
    assert sum(sql.startswith('SELECT "tasks_task"."id", "tasks_task"."project_id"') for sql in statements) == 1, \
        "the whole row is read once, under the update's lock"


_KIND = re.compile(r'^(?:(UPDATE|INSERT INTO|DELETE FROM) |(SELECT)\b.*?\bFROM )"(\w+)"', re.DOTALL)


def _kinds(statements: list[str]) -> list[tuple[str, str]]:
    """Each statement as its verb and its (first) table, in order; a statement of its own SQL (WITH ...) as
    its first word."""
    kinds = []
    for sql in statements:
        match = _KIND.match(sql)
        if match is None:
            kinds.append((sql.split(None, 1)[0], ""))
            continue
        writes, select, table = match.groups()
        kinds.append((writes or select, table))
    return kinds


def test_a_typed_question_costs_the_statements_of_its_quick_button(alice: Any, website: Any) -> None:
    """Once routed, a typed question reads and writes what its quick button does: the routing call's usage
    reaches the run's counters with the outcome, in no statement (or commit) of its own."""
    _overdue(alice, website, 3)
    client = _client(alice)
    for body in (OVERDUE, TYPED_OVERDUE):  # warm
        _post(client, body)
    quick = _data_statements(_statements(client, OVERDUE))
    with CaptureQueriesContext(connection) as captured:
        typed = _post(client, TYPED_OVERDUE)
    assert typed["route"]["via"] == "llm_router" and typed["usage"]["llm_calls"] == 1
    assert Run.objects.get(pk=typed["run_id"]).llm_calls == 1
    assert _checkpoint_values(typed["run_id"]) == {}, "a run that could have paused but ended keeps no checkpoint"
    assert _kinds(_data_statements([q["sql"] for q in captured.captured_queries])) == _kinds(quick)
    assert ("SELECT", TaskActivity._meta.db_table) in _kinds(quick), \
        "a read of task rows takes the task log's revision first (a stored copy's index is tied to it)"


def test_a_project_page_is_checked_and_named_in_one_read(alice: Any, website: Any) -> None:
    """The page context's check of the project it names also reads the name the summary and the title use;
    in the run, the Tasks at risk button's tool checks its scope (and names it) once."""
    risk = {"action": "risk_analysis", "page_context": {
        "page": "project_detail", "origin": "quick_button", "routeParams": {"projectId": website.pk},
        "selectedEntity": {"type": "project", "id": website.pk}}}
    client = _client(alice)
    _post(client, risk)  # warm
    statements = _data_statements(_statements(client, risk))
    start = statements.index(next(s for s in statements if s.startswith("INSERT")))
    before_the_run, in_the_run = _kinds(statements[:start]), _kinds(statements[start:])
    assert before_the_run.count(("SELECT", website._meta.db_table)) == 1, before_the_run
    assert in_the_run.count(("SELECT", website._meta.db_table)) == 1, in_the_run
    run = Run.objects.order_by("-created_at").first()
    assert run is not None and run.conversation is not None and website.name in run.conversation.title
