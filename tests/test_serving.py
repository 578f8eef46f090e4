"""Serving: the image's gunicorn preloads and warms the app in the master; connections persist."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import connections

from agent.assembler import tokens
from agent.graph import graph
from pm_assistant import gunicorn_conf
from pm_assistant.warmup import warm_up

ROOT = Path(__file__).resolve().parent.parent


def test_the_dockerfile_serves_with_the_preloading_config() -> None:
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    assert json.loads(cmd[4:]) == ["gunicorn", "pm_assistant.wsgi:application", "--config",
                                   "python:pm_assistant.gunicorn_conf"]
    assert gunicorn_conf.preload_app is True and gunicorn_conf.worker_class == "gthread"
    assert gunicorn_conf.workers >= 1 and gunicorn_conf.threads >= 1


def test_warm_up_builds_the_graph_and_tokenizer_and_leaves_no_connection() -> None:
    graph.compiled_graph.cache_clear()
    tokens._encoding.cache_clear()
    # Earlier tests in this process may hold connections; warm-up must not leave a new one open.
    before = {c.alias for c in connections.all(initialized_only=True) if c.connection is not None}
    warm_up()
    assert graph.compiled_graph.cache_info().currsize == 1
    assert tokens._encoding.cache_info().currsize == 1
    after = {c.alias for c in connections.all(initialized_only=True) if c.connection is not None}
    assert after <= before


def test_database_connections_persist_with_health_checks(settings: Any) -> None:
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] > 0
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_warm_up_compiles_the_page_templates_into_the_cached_loader() -> None:
    from django.template import engines

    loader = engines["django"].engine.template_loaders[0]  # type: ignore[attr-defined]
    loader.reset()
    warm_up()
    assert {"home.html", "tasks/list.html", "projects/detail.html", "tasks/_bits.html"} <= set(
        loader.get_template_cache)


def test_gunicorn_pools_a_connection_per_thread_unless_told_otherwise(monkeypatch: Any) -> None:
    import importlib

    monkeypatch.delenv("DB_POOL_SIZE", raising=False)
    assert importlib.reload(gunicorn_conf).raw_env == [f"DB_POOL_SIZE={gunicorn_conf.threads}"]
    monkeypatch.setenv("DB_POOL_SIZE", "0")
    assert importlib.reload(gunicorn_conf).raw_env == []


def test_warm_database_without_a_pool_does_nothing(db: Any, django_assert_num_queries: Any) -> None:
    from pm_assistant.warmup import warm_database

    with django_assert_num_queries(0):
        warm_database()
