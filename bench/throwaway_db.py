"""A database made for one benchmark run and dropped after it, with Django set up on it.

SQLite in a temporary folder, or — when DATABASE_URL names a PostgreSQL server — a database
``<its name>_bench_<name>`` on that server (never the database DATABASE_URL names: a benchmark must
not clobber data; named after it, so runs against different databases do not drop each other's).
The checkpoints of paused runs go to the temporary folder too.
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def throwaway_database(name: str, *, offline_model: bool = True) -> Iterator[Path]:
    """Set Django up on a fresh database for this run; yield the run's temporary folder."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as tmp:
        work = Path(tmp)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")
        os.environ["AGENT_CHECKPOINT_SQLITE_PATH"] = str(work / "checkpoints.sqlite")
        if offline_model:
            os.environ["LLM_PROVIDER"] = "offline"
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.conf import settings
        from django.db import connection
        from django.test.utils import setup_test_environment, teardown_test_environment

        settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = (
            str(work / "bench.sqlite3") if connection.vendor == "sqlite"
            else f"{settings.DATABASES['default']['NAME']}_bench_{name}")
        setup_test_environment()
        # The test environment wraps every template render to report it to the test client; a
        # benchmark times the pages as they are served, so rendering goes back to Django's own.
        from django.template.base import PartialTemplate, Template
        from django.test.utils import _TestState

        Template._render = _TestState.saved_data.template_render  # type: ignore[method-assign]
        PartialTemplate._render = _TestState.saved_data.partial_template_render  # type: ignore[method-assign]
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            yield work
        finally:
            from agent.graph.checkpointer import checkpointer_pools_close

            checkpointer_pools_close()  # its pooled connections would keep the database from being dropped
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()
