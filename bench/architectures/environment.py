"""The bench's own embedded stack: a fresh SQLite database, eager Celery, files in a temporary folder.

Set before Django starts, so a fresh clone needs no service and every run starts from the same
empty database (and so the same ids).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def environment_start(workdir: Path, *, base_url: str | None) -> None:
    """Configure and start Django on a fresh database in `workdir`; `base_url` is the stub's (None: real model)."""
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "pm_assistant.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "AGENT_CHECKPOINT_SQLITE_PATH": str(workdir / "checkpoints.sqlite3"),
        "ARTIFACT_ROOT": str(workdir / "artifacts"),
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "LLM_PROVIDER": "openai",
        # A scripted model that fails is a result to count, not a provider to stop calling.
        "LLM_BREAKER_FAILURES": "1000000",
    })
    if base_url is not None:
        os.environ.update({"OPENAI_API_KEY": "bench-stub", "OPENAI_BASE_URL": base_url})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    # The tables straight from the models, as Django's test runner makes them with MIGRATE off: a
    # second instead of the migrations' twenty on a small machine (the checkpointer keeps its own file).
    settings.DATABASES["default"]["TEST"] = {"NAME": str(workdir / "bench.sqlite3"), "MIGRATE": False}
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
