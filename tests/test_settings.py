"""Settings read from the environment: the embedded defaults, the production shape and deploy checks."""
from __future__ import annotations

import json
import os
import posixpath
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import environ
import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_FILE = ROOT / "pm_assistant" / "settings.py"
# Variables a developer's shell (or the test session itself) might carry into the test.
ENV_KEYS = (
    "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND",
    "CELERY_TASK_ALWAYS_EAGER", "DJANGO_PRODUCTION", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS",
    "OPENAI_API_KEY", "LLM_PROVIDER", "ARTIFACT_S3_BUCKET", "DB_POOL_SIZE",
)


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Evaluate settings.py afresh under exactly the given variables (a local .env is not read)."""
    for key in ENV_KEYS:
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(environ.Env, "read_env", classmethod(lambda cls, *args, **kwargs: None))
    return runpy.run_path(str(SETTINGS_FILE))


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120, check=False,
    )


def production_env() -> dict[str, str]:
    return {
        "DJANGO_PRODUCTION": "1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "pm.example.com",
    }


# The deploy checks run manage.py in a subprocess without DATABASE_URL, so they give the same answer
# in every suite run: CI runs them once, in the run on the embedded defaults.
once = pytest.mark.skipif("DATABASE_URL" in os.environ, reason="run once, in the suite on the embedded defaults")


@once
def test_production_passes_the_deploy_check_with_no_findings() -> None:
    proc = manage("check", "--deploy", "--fail-level", "WARNING", **production_env())

    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "System check identified no issues (0 silenced)." in proc.stdout


@once
def test_debug_defaults_fail_the_deploy_check() -> None:
    """The check can fail: the embedded defaults are not fit to deploy."""
    proc = manage("check", "--deploy", "--fail-level", "WARNING")

    assert proc.returncode != 0
    assert "security.W018" in proc.stderr  # DEBUG is on


@once
def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = production_env()
    del env["DJANGO_SECRET_KEY"]

    proc = manage("check", **env)

    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_PRODUCTION=1" in proc.stderr


def test_production_hardening_is_on(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_settings(monkeypatch, **production_env())

    assert s["DEBUG"] is False
    assert s["ALLOWED_HOSTS"] == ["pm.example.com"]
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"] and s["SECURE_SSL_REDIRECT"]
    assert s["STORAGES"]["staticfiles"]["BACKEND"] == "pm_assistant.static_files.ModuleAwareStaticFilesStorage"


def test_production_static_files_are_collected_with_every_module_importing_hashed_modules(
        monkeypatch: pytest.MonkeyPatch, settings: Any, tmp_path: Path) -> None:
    """The pages' ES modules import each other: once hashed, each import names a hashed file that was collected."""
    production = load_settings(monkeypatch, **production_env())["STORAGES"]["staticfiles"]
    settings.STATIC_ROOT, settings.STORAGES = tmp_path, {**settings.STORAGES, "staticfiles": production}
    call_command("collectstatic", interactive=False, verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = set(paths.values())
    imports = {name: re.findall(r"""(?:import|from)\s*["'](\./[^"']+)["']""", (tmp_path / paths[name]).read_text())
               for name in paths if name.startswith("js/")}
    assert len(imports["js/main.js"]) >= len(imports) - 1  # the entry imports every other module
    for name, targets in imports.items():
        for target in targets:
            assert posixpath.normpath(posixpath.join(posixpath.dirname(paths[name]), target)) in hashed, (name, target)


def test_database_url_selects_postgresql(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_settings(monkeypatch, DATABASE_URL="postgres://pm:secret@db.internal:5433/pm_assistant")

    db = s["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "pm_assistant", "pm", "secret", "db.internal", 5433,
    )


def test_without_database_url_the_database_is_sqlite_in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    db = load_settings(monkeypatch)["DATABASES"]["default"]

    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(db["NAME"]) == ROOT / "db.sqlite3"


def test_without_redis_celery_is_eager_with_no_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_settings(monkeypatch)

    assert s["CELERY_TASK_ALWAYS_EAGER"] is True
    assert s["CELERY_BROKER_URL"] == "memory://"
    assert s["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert s["LLM_PROVIDER"] == "offline"


def test_redis_url_gives_celery_a_broker_and_result_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_settings(monkeypatch, REDIS_URL="redis://cache.internal:6379/2")

    assert s["CELERY_TASK_ALWAYS_EAGER"] is False
    assert s["CELERY_BROKER_URL"] == s["CELERY_RESULT_BACKEND"] == "redis://cache.internal:6379/2"
    assert s["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"


def test_sqlite_waits_for_a_writer_instead_of_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    database = load_settings(monkeypatch)["DATABASES"]["default"]
    assert database["ENGINE"].endswith("sqlite3")
    assert database["OPTIONS"] == {
        "init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE", "timeout": 20}


def test_postgres_gets_no_sqlite_options(monkeypatch: pytest.MonkeyPatch) -> None:
    database = load_settings(monkeypatch, DATABASE_URL="postgres://u@db:5432/pm")["DATABASES"]["default"]
    assert "transaction_mode" not in database.get("OPTIONS", {})


def test_a_pool_size_pools_postgresql_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    database = load_settings(monkeypatch, DATABASE_URL="postgres://u@db:5432/pm", DB_POOL_SIZE="4")[
        "DATABASES"]["default"]
    from pm_assistant.warm_connection import WarmConnection

    # Each connection the pool opens names every table first (pm_assistant/warm_connection.py).
    assert database["OPTIONS"]["pool"] == {"min_size": 4, "max_size": 4, "timeout": 10,
                                           "connection_class": WarmConnection}
    assert database["CONN_MAX_AGE"] == 0  # pooled connections go back after each request
    unpooled = load_settings(monkeypatch, DATABASE_URL="postgres://u@db:5432/pm")["DATABASES"]["default"]
    assert "pool" not in unpooled.get("OPTIONS", {}) and unpooled["CONN_MAX_AGE"] == 60
    sqlite = load_settings(monkeypatch, DB_POOL_SIZE="4")["DATABASES"]["default"]
    assert "pool" not in sqlite["OPTIONS"]
