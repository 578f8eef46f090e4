"""LangGraph's own checkpointers: Postgres on PostgreSQL, SQLite otherwise."""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

# Types that may be restored from a checkpoint; anything else is refused on load.
ALLOWED_TYPES = [
    ("agent.context.three_views", "RouterCtx"), ("agent.context.three_views", "ExecCtx"),
    ("agent.context.three_views", "ModelSummary"), ("agent.page_context.schema", "SelectedEntity"),
    ("agent.page_context.schema", "RouteParams"), ("agent.page_context.schema", "Filters"),
    ("agent.page_context.schema", "KeyFilters"), ("agent.page_context.schema", "Pagination"),
    ("agent.routing.decision", "Route"), ("agent.routing.decision", "Slots"),
    ("agent.routing.decision", "IntentCheck"), ("agent.page_context.schema", "PageContext"),
    ("agent.page_context.schema", "EntityNames"),
]


def _serde() -> JsonPlusSerializer:
    return JsonPlusSerializer(allowed_msgpack_modules=ALLOWED_TYPES)


def postgres_conninfo(db: Mapping[str, Any]) -> str:
    """Build a libpq connection string from a Django DATABASES entry, quoting values as libpq requires."""
    from psycopg.conninfo import make_conninfo

    parts = {"dbname": db["NAME"], "user": db.get("USER"), "password": db.get("PASSWORD"),
             "host": db.get("HOST"), "port": db.get("PORT")}
    return make_conninfo("", **{k: v for k, v in parts.items() if v})


# Any fixed number, the same in every process: holders of this advisory lock run the saver's setup one at a time.
_SETUP_LOCK = 0x706D_636B_7074  # "pmckpt"


def postgres_checkpointer_setup(db: Mapping[str, Any]) -> None:
    """Create or upgrade the Postgres saver's tables, one process at a time (run by migrate, never a request).

    The saver's setup() is not safe to run concurrently (two processes insert the same version
    into checkpoint_migrations), and some of its steps create indexes CONCURRENTLY, which must run
    outside a transaction: so its own autocommit connection, under a session advisory lock.
    """
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg import Connection
    from psycopg.rows import dict_row

    with Connection.connect(postgres_conninfo(db), autocommit=True, prepare_threshold=0,
                            row_factory=dict_row) as pg:
        pg.execute("SELECT pg_advisory_lock(%s)", (_SETUP_LOCK,))
        try:
            PostgresSaver(pg).setup()
        finally:
            pg.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))


# One pool per process and database: a forked process (a gunicorn or Celery worker) never uses its
# parent's, and a test database gets its own.
_POOLS: dict[tuple[int, str], ConnectionPool[Any]] = {}
_POOLS_LOCK = threading.Lock()


def _postgres_pool(conninfo: str) -> ConnectionPool[Any]:
    """This process's long-lived pool of saver connections (opened on first use)."""
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    key = (os.getpid(), conninfo)
    with _POOLS_LOCK:
        if key not in _POOLS:
            # As the saver wants its connections: autocommit, no server-side prepared statements, rows as dicts.
            _POOLS[key] = ConnectionPool(
                conninfo, min_size=1, max_size=settings.AGENT_CHECKPOINT_POOL_SIZE, open=True, timeout=10,
                kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
                check=ConnectionPool.check_connection, name="checkpointer")
        return _POOLS[key]


def checkpointer_pools_close() -> None:
    """Close this process's saver pools (before its database is dropped, or at exit)."""
    with _POOLS_LOCK:
        for key in [key for key in _POOLS if key[0] == os.getpid()]:
            _POOLS.pop(key).close()


def checkpointer_ping(timeout: float) -> None:
    """Read the checkpointer's own table through its store, waiting at most `timeout` seconds for a
    connection; raise when the store cannot answer (GET /healthz)."""
    if connection.vendor == "postgresql":
        pool = _postgres_pool(postgres_conninfo(connection.settings_dict))
        with pool.connection(timeout=timeout) as pg:
            pg.execute("SELECT 1 FROM checkpoints LIMIT 1")
        return
    with checkpointer() as saver:
        saver.get_tuple({"configurable": {"thread_id": "healthz", "checkpoint_ns": ""}})


@contextmanager
def checkpointer() -> Iterator[BaseCheckpointSaver[Any]]:
    """The configured checkpointer for one run: on PostgreSQL a saver over the process's pool."""
    if connection.vendor == "postgresql":
        from langgraph.checkpoint.postgres import PostgresSaver

        # The tables exist: migration agent 0004 created them.
        yield PostgresSaver(_postgres_pool(postgres_conninfo(connection.settings_dict)), serde=_serde())
        return
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = Path(settings.AGENT_CHECKPOINT_SQLITE_PATH)
    path.parent.mkdir(parents=True, exist_ok=True)
    lite = sqlite3.connect(path, check_same_thread=False)
    # The saver turns on write-ahead logging; with it, NORMAL syncs at checkpoints of the log rather than
    # at every commit: a crash of the process loses nothing, a power cut at most the last runs' steps.
    lite.execute("PRAGMA synchronous=NORMAL")
    try:
        yield SqliteSaver(lite, serde=_serde())
    finally:
        lite.close()
