"""The Postgres checkpointer's tables come from migrate: first requests on a fresh database never race."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from django.db import connection
from langgraph.checkpoint.postgres import PostgresSaver

from agent.graph.checkpointer import postgres_checkpointer_setup
from tests.gunicorn_server import gunicorn, migrated_app_database

pytestmark = pytest.mark.long  # a gunicorn server on a fresh PostgreSQL database

FIRST_REQUESTS = 8


@pytest.fixture
def postgres_only(db: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the Postgres checkpointer is used on PostgreSQL only")


def _versions() -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT v FROM checkpoint_migrations ORDER BY v")
        return [row[0] for row in cursor.fetchall()]


def test_migrate_created_every_checkpointer_table_and_version(postgres_only: None) -> None:
    with connection.cursor() as cursor:
        tables = {t for t in connection.introspection.table_names(cursor) if t.startswith("checkpoint")}
    assert tables == {"checkpoint_migrations", "checkpoints", "checkpoint_blobs", "checkpoint_writes"}
    # Every version recorded: the saver's setup would find nothing left to do.
    assert _versions() == list(range(len(PostgresSaver.MIGRATIONS)))


def test_setup_again_is_a_no_op(postgres_only: None) -> None:
    postgres_checkpointer_setup(connection.settings_dict)
    assert _versions() == list(range(len(PostgresSaver.MIGRATIONS)))


def test_concurrent_first_requests_on_a_fresh_database() -> None:
    with migrated_app_database("the checkpointer race needs a fresh PostgreSQL database") as served:
        assert served is not None
        _, env, token = served
        with gunicorn(env, workers=4, threads=2) as base:
            page = {"page": "home", "origin": "workbench"}

            def first_request(_: int) -> httpx.Response:
                return httpx.post(f"{base}/api/assistant/requests/", json={"action": "my_overdue",
                                                                           "page_context": page},
                                  headers={"Authorization": f"Token {token}"}, timeout=60)

            with ThreadPoolExecutor(FIRST_REQUESTS) as pool:
                responses = list(pool.map(first_request, range(FIRST_REQUESTS)))
    statuses = [r.status_code for r in responses]
    assert statuses == [200] * FIRST_REQUESTS, [r.text[:200] for r in responses]
    assert all(r.json()["status"] == "done" for r in responses)
