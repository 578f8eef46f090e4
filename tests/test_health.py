"""GET /healthz: 200 when the database, the cache, the broker and the checkpointer answer, else 503 naming
the parts that failed and nothing about where they are (pm_assistant/health.py)."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client

from tests.celery_config import celery_configured

pytestmark = pytest.mark.django_db

SECRET = "hunter2-not-for-anyone"
DEAD_REDIS = f"redis://:{SECRET}@127.0.0.1:1/0"  # nothing listens on port 1


def _health(client: Client) -> tuple[int, dict[str, Any]]:
    response = client.get("/healthz")
    assert response["Content-Type"] == "application/json"
    assert SECRET not in response.content.decode()
    return response.status_code, response.json()


def test_every_part_answers_without_a_login(client: Client) -> None:
    status, body = _health(client)
    assert status == 200
    # Jobs run in-process here (eager Celery): there is no broker to ask.
    assert body == {"status": "ok", "failed": [], "checks": {"database": "ok", "cache": "ok", "checkpointer": "ok"}}


def test_an_unreachable_cache_is_named_and_its_address_is_not(client: Client, settings: Any) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": DEAD_REDIS}}
    status, body = _health(client)
    assert status == 503
    assert body["failed"] == ["cache"] and body["checks"]["database"] == "ok"
    assert "127.0.0.1" not in str(body)


def test_an_unreachable_broker_is_named(client: Client) -> None:
    with celery_configured(broker_url=DEAD_REDIS, task_always_eager=False):
        status, body = _health(client)
    assert status == 503
    assert body["failed"] == ["broker"]
    assert body["checks"] == {"database": "ok", "cache": "ok", "checkpointer": "ok", "broker": "failed"}


def test_a_reachable_broker_is_asked(client: Client, redis_url: str) -> None:
    with celery_configured(broker_url=redis_url, task_always_eager=False):
        status, body = _health(client)
    assert (status, body["checks"].get("broker")) == (200, "ok")


def test_a_checkpointer_that_cannot_open_its_store_is_named(client: Client, settings: Any, tmp_path: Any) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite saver's file; on PostgreSQL tests/test_compose.py serves a missing database")
    settings.AGENT_CHECKPOINT_SQLITE_PATH = tmp_path / "a-file" / "checkpoints.sqlite"
    (tmp_path / "a-file").write_text("not a folder")
    status, body = _health(client)
    assert (status, body["failed"]) == (503, ["checkpointer"])


def test_only_get_is_answered(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
