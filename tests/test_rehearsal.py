"""The quick-button rehearsal gunicorn's master runs before it forks (pm_assistant/warmup.py)."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db(transaction=True)
def test_the_rehearsal_presses_a_quick_button_and_keeps_nothing(caplog: Any, openai_settings: Any) -> None:
    """The master runs the "my overdue" path once (a run, its trace, the task read) and rolls all of it
    back; with a real model configured it asks the model nothing (a quick button makes no model call)."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from agent.models import Conversation, Run, TraceEvent
    from pm_assistant.warmup import rehearse_quick_button

    def rows() -> list[int]:
        return [model.objects.count() for model in (User, Conversation, Run, TraceEvent)]

    before = rows()
    with CaptureQueriesContext(connection) as queries:
        rehearse_quick_button()
    # It leaves no connection open (in the master or a worker, the pool gets its connection back).
    assert all(c.connection is None for c in connections.all(initialized_only=True))
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert 'INSERT INTO "agent_run"' in sql and 'INSERT INTO "agent_traceevent"' in sql
    assert 'FROM "tasks_task"' in sql
    # The whole stack ran: the session was stored and read back by the middleware.
    assert 'INSERT INTO "django_session"' in sql and 'FROM "django_session"' in sql
    assert rows() == before
    assert "rehearsal failed" not in caplog.text
    assert openai_settings.calls == 0


@pytest.mark.django_db(transaction=True)
def test_a_failed_rehearsal_is_logged_and_the_server_starts(monkeypatch: Any, caplog: Any) -> None:
    from django.contrib.auth.models import User

    import agent.web.api
    from pm_assistant.warmup import rehearse_quick_button

    def broken(**kwargs: Any) -> None:
        User.objects.get(username__startswith="warm-up-")  # the user was made, inside the transaction
        raise RuntimeError("database gone")

    monkeypatch.setattr(agent.web.api, "run_request", broken)
    # A logging.config.dictConfig run by an earlier test on this worker disables the loggers it does not
    # name; this one must speak here, whatever ran before on this worker.
    monkeypatch.setattr(logging.getLogger("pm_assistant.warmup"), "disabled", False)
    caplog.set_level(logging.WARNING, logger="pm_assistant.warmup")
    rehearse_quick_button()
    assert "quick-button rehearsal failed" in caplog.text and "database gone" in caplog.text
    assert not User.objects.filter(username__startswith="warm-up-").exists()


@pytest.mark.django_db(transaction=True)
def test_after_its_rehearsal_the_master_holds_no_connection_and_an_unopened_pool() -> None:
    """What the workers fork from: the rehearsal opened the database pool and ran the assistant; after
    release_connections the pool object is new and not opened, and no connection or saver pool is left."""
    from django.db import connection

    from tests.service_checks import skip_or_fail

    if connection.vendor != "postgresql":
        skip_or_fail("the connection pool is PostgreSQL's")
    db = connection.settings_dict
    user = f"{db['USER']}@" if db["USER"] else ""
    url = f"postgres://{user}{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    probe = """
import django
django.setup()
from django.db import connections
from agent.graph import checkpointer
from pm_assistant.warmup import rehearse_quick_button, release_connections, warm_up
warm_up()
before = connections["default"].pool
rehearse_quick_button()
opened = not before.closed
release_connections()
pool = connections["default"]._connection_pools.get("default")
print(opened, pool is not before, pool.closed, connections["default"].connection is None, len(checkpointer._POOLS))
"""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "pm_assistant.settings", "DB_POOL_SIZE": "2",
           "DATABASE_URL": url}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    assert "rehearsal failed" not in done.stderr
    assert done.stdout.split()[-5:] == ["True", "True", "True", "True", "0"]
