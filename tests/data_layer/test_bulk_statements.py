"""A bulk status change costs the same SQL for 5 tasks as for 50, and at most MAX_STATEMENTS: no statement per task."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.services import task_bulk_set_status

MAX_STATEMENTS = 15
# The approval's pass besides: the task log's revision its selection is stamped with, and the run's audit
# at its end (the trace's earlier events and the selection's artifact, read once however many previews), and
# the stop's guard around the write (the run marked as writing unless stopped, in its own savepoint: three).
APPROVE_MAX_STATEMENTS = MAX_STATEMENTS + 6


def _tasks(project: Project, owner: Any, count: int, prefix: str) -> list[Task]:
    return Task.objects.bulk_create(Task(project=project, title=f"{prefix} {i}", created_by=owner, progress=i % 2 * 40)
                                    for i in range(count))


def _bulk_statements(actor: Any, tasks: list[Task]) -> int:
    with CaptureQueriesContext(connection) as captured:
        changed = task_bulk_set_status(actor=actor, tasks=tasks, status="done")
    assert [t.pk for t in changed] == [t.pk for t in tasks]
    return len(captured.captured_queries)


def test_the_service_costs_the_same_statements_for_5_and_50_tasks(alice: Any, website: Project,
                                                                  mobile: Project) -> None:
    few = _tasks(website, alice, 3, "Few") + _tasks(mobile, alice, 2, "Few")
    many = _tasks(website, alice, 30, "Many") + _tasks(mobile, alice, 20, "Many")
    assert _bulk_statements(alice, few) == _bulk_statements(alice, many) <= MAX_STATEMENTS
    done = Task.objects.filter(pk__in=[t.pk for t in few + many])
    assert set(done.values_list("status", "progress")) == {("done", 100)} and not done.filter(completed_at=None)
    # One status record per task, and a progress record for those not already at 100.
    assert TaskActivity.objects.filter(kind="status").count() == 55
    assert TaskActivity.objects.filter(kind="progress").count() == 55


def _approve_statements(client: APIClient, project: Project, tasks: list[Task]) -> list[str]:
    page = {"page": "task_list", "origin": "quick_button", "routeParams": {"projectId": project.pk},
            "visibleEntityIds": [t.pk for t in tasks]}
    asked = client.post("/api/assistant/requests/", {"action": "mark_visible_done", "page_context": page},
                        format="json").json()
    assert asked["status"] == "needs_confirmation", asked
    with CaptureQueriesContext(connection) as captured:
        done = client.post(f"/api/assistant/runs/{asked['run_id']}/confirm/", {"decision": "approve"},
                           format="json").json()
    assert done["status"] == "done" and done["data"]["count"] == len(tasks), done
    return [q["sql"] for q in captured.captured_queries]


def test_approving_a_bulk_change_costs_the_same_statements_for_5_and_50_tasks(
        monkeypatch: pytest.MonkeyPatch, settings: Any, alice: Any, website: Project) -> None:
    settings.BULK_CONFIRM_THRESHOLD = 2
    # Both selections stored as artifacts: whether a result is inline is a size threshold, not per task.
    settings.ARTIFACT_INLINE_MAX_ITEMS = 2
    # Both selections by the page's ids (not re-queried by its filters): the same path for 5 and 50.
    monkeypatch.setattr("agent.context.assemble.EXEC_VISIBLE_IDS_MAX", 100)
    client = APIClient()
    client.force_authenticate(alice)
    few = _approve_statements(client, website, _tasks(website, alice, 5, "Few"))
    many = _approve_statements(client, website, _tasks(website, alice, 50, "Many"))
    assert len(few) == len(many) <= APPROVE_MAX_STATEMENTS, "\n".join(many)
    assert not Task.objects.exclude(status="done").exists()
