"""GET /healthz: whether this server can serve a run, for a load balancer or docker compose.

Each part a run needs is asked once, read-only: the database (one query), the cache (a key written and
read back), the Celery broker (a connection, unless jobs run in-process) and the run checkpointer (its
store opened and its table read). 200 when all answer, else 503 naming the parts that failed. The
answer names parts and outcomes only: no host, URL, password or error text, since anyone may ask.
"""
from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

# The longest a part may take to answer: the whole check stays within compose's 5 s.
TIMEOUT_SECONDS = 1.5


def _database() -> None:
    pool = getattr(connection, "pool", None)
    if pool is not None:  # the worker's PostgreSQL pool: wait for a connection no longer than the check may
        with pool.connection(timeout=TIMEOUT_SECONDS) as pg:
            pg.execute("SELECT 1")
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("SELECT 1 answered something else")


def _cache() -> None:
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", timeout=10)
    try:
        if cache.get(key) != "1":
            raise RuntimeError("the cache did not keep a key")
    finally:
        cache.delete(key)


def _broker() -> None:
    from pm_assistant.celery import app

    with app.connection_for_write() as broker:
        broker.ensure_connection(max_retries=1, timeout=TIMEOUT_SECONDS)  # type: ignore[arg-type]  # seconds, a float


def _checkpointer() -> None:
    from agent.graph.checkpointer import checkpointer_ping

    checkpointer_ping(timeout=TIMEOUT_SECONDS)


def health_checks() -> dict[str, Callable[[], None]]:
    """The parts a run needs, by name; the broker only when jobs go through one."""
    from pm_assistant.celery import app

    checks = {"database": _database, "cache": _cache, "checkpointer": _checkpointer}
    if not app.conf.task_always_eager:
        checks["broker"] = _broker
    return checks


def health_report() -> dict[str, str]:
    """Each part's outcome, "ok" or "failed"; why a part failed goes to the log, not to the answer."""
    outcome = {}
    for name, check in health_checks().items():
        try:
            check()
            outcome[name] = "ok"
        except Exception:
            logger.warning("health check %s failed", name, exc_info=True)
            outcome[name] = "failed"
    return outcome


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = health_report()
    failed = [name for name, outcome in checks.items() if outcome != "ok"]
    body = {"status": "failed" if failed else "ok", "failed": failed, "checks": checks}
    return JsonResponse(body, status=503 if failed else 200)
