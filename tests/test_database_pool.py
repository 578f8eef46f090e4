"""The image's gunicorn pools PostgreSQL connections per worker: opened and warmed before the first
request, bounded by the threads, shared by them."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg

from tests.gunicorn_server import gunicorn, migrated_app_database

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
            # The login page reads no table: what is open was opened by the worker as it started.
            assert _connections(url) == THREADS
            # Each connection of the pool, not one of them THREADS times, has named every table.
            warmed = _last_statements(url)
            assert len(warmed) == THREADS
            assert all('"tasks_task"' in query and '"agent_run"' in query for query in warmed), warmed
            headers = {"Authorization": f"Token {token}"}

            def overdue(_: int) -> int:
                return httpx.post(f"{base}/api/assistant/requests/", headers=headers, timeout=60, json={
                    "action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}).status_code

            with ThreadPoolExecutor(4 * THREADS) as clients:
                statuses = list(clients.map(overdue, range(8 * THREADS)))
            assert statuses == [200] * (8 * THREADS)
            assert _connections(url) == THREADS
