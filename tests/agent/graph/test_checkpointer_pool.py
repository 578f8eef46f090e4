"""On PostgreSQL, runs that may pause share the process's pool of saver connections."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from agent.graph.checkpointer import checkpointer
from agent.run.service import run_request
from tasks.services import task_create

pytestmark = pytest.mark.django_db(transaction=True)


def _backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def test_paused_runs_reuse_the_pool_instead_of_connecting_each(alice: Any, website: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the Postgres saver's pool")
    tasks = [task_create(actor=alice, project=website, title=f"Old {i}") for i in range(6)]

    def delete(task: Any) -> str:
        run = run_request(user=alice, action="delete_task", page_context={
            "page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}})
        return run.status

    assert delete(tasks[0]) == "needs_confirmation"  # the pool opens here
    with checkpointer() as first, checkpointer() as second:
        assert first.conn is second.conn  # one pool, not a connection per run
    before = _backends()
    assert [delete(task) for task in tasks[1:]] == ["needs_confirmation"] * 5
    assert _backends() == before
