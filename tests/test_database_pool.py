"""The image's gunicorn pools PostgreSQL connections per worker: opened as the worker starts, each
warmed as it opens, bounded by the threads, shared by them."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg
import pytest

from pm_assistant import warm_connection
from pm_assistant.warm_connection import WarmConnection
from tests.gunicorn_server import fresh_postgres_database, gunicorn, migrated_app_database, postgres_server_url

pytestmark = pytest.mark.long  # gunicorn servers on fresh PostgreSQL databases

THREADS = 3


def _connections(url: str) -> int:
    """Connections to this database other than the one asking."""
    with psycopg.connect(url, autocommit=True) as probe:
        row = probe.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                            "AND pid <> pg_backend_pid()").fetchone()
    assert row is not None
    return int(row[0])


def _last_statements(url: str) -> list[str]:
    """The last statement of each other connection to this database."""
    with psycopg.connect(url, autocommit=True) as probe:
        rows = probe.execute("SELECT query FROM pg_stat_activity WHERE datname = current_database() "
                             "AND pid <> pg_backend_pid()").fetchall()
    return [str(row[0]) for row in rows]


def test_a_worker_opens_its_pool_before_any_request_and_serves_from_it() -> None:
    with migrated_app_database("the connection pool is PostgreSQL's", GUNICORN_WORKERS="1",
                               GUNICORN_THREADS=str(THREADS)) as served:
        assert served is not None
        url, env, token = served
        env.pop("DB_POOL_SIZE", None)
        with gunicorn(env, workers=1, threads=THREADS, config=True) as base:
            # The login page reads no table: what is open was opened by the worker as it started (it
            # waits for the first connection; the pool opens the others beside its first requests).
            deadline = time.monotonic() + 10
            while _connections(url) < THREADS and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _connections(url) == THREADS
            headers = {"Authorization": f"Token {token}"}

            def overdue(_: int) -> int:
                return httpx.post(f"{base}/api/assistant/requests/", headers=headers, timeout=60, json={
                    "action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}).status_code

            with ThreadPoolExecutor(4 * THREADS) as clients:
                statuses = list(clients.map(overdue, range(8 * THREADS)))
            assert statuses == [200] * (8 * THREADS)
            assert _connections(url) == THREADS


def test_a_pooled_connection_names_every_table_as_it_opens_and_an_empty_database_still_connects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with migrated_app_database("the connection pool is PostgreSQL's") as served:
        assert served is not None
        url = served[0]
        # The class the pool opens its connections with (settings.py, when DB_POOL_SIZE is set).
        with WarmConnection.connect(url, autocommit=True):
            (last,) = _last_statements(url)
        assert '"tasks_task"' in last and '"agent_run"' in last and '"django_session"' in last, last
    server = postgres_server_url()
    assert server is not None
    warnings: list[str] = []
    # Recorded at the logger itself: whatever logging configuration an earlier test left behind.
    monkeypatch.setattr(warm_connection.logger, "warning", lambda message, *args: warnings.append(message % args))
    with fresh_postgres_database(server, prefix="pm_empty") as empty, \
            WarmConnection.connect(empty, autocommit=True) as connection:
        # Before the first migrate there is no table to name: a warning, and a connection that works.
        assert connection.execute("SELECT 1").fetchone() == (1,)
    assert len(warnings) == 1 and warnings[0].startswith("database connection not warmed"), warnings
