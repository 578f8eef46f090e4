"""The bench's own embedded stack: a fresh SQLite database, eager Celery, files in a temporary folder.

Set before Django starts, so a fresh clone needs no service and every run starts from the same
empty database (and so the same ids).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _settings_variables() -> set[str]:
    """Every environment variable pm_assistant/settings.py reads."""
    source = (ROOT / "pm_assistant" / "settings.py").read_text(encoding="utf-8")
    return set(re.findall(r"""env(?:\.\w+)?\(\s*["']([A-Z][A-Z0-9_]*)["']""", source))


def environment_start(workdir: Path, *, base_url: str | None, offline: bool = False) -> None:
    """Configure and start Django on a fresh database in `workdir`; `base_url` is the stub's (None: real model).

    With `offline`, the offline provider answers and no model is called at all.

    Every setting takes its declared default (a developer's REDIS_URL, TIME_ZONE or thresholds would
    change the figures), except the few set here; a real model keeps its key, endpoint and model names.
    """
    keep = {"OPENAI_API_KEY", "OPENAI_BASE_URL", "LLM_ROUTER_MODEL", "LLM_GENERATION_MODEL"} if base_url is None \
        and not offline else set()
    for name in _settings_variables() - keep:
        os.environ.pop(name, None)
    if (ROOT / ".env").exists():
        print("Note: settings also read .env; a setting it changes changes the figures.", file=sys.stderr)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "pm_assistant.settings",
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "AGENT_CHECKPOINT_SQLITE_PATH": str(workdir / "checkpoints.sqlite3"),
        "ARTIFACT_ROOT": str(workdir / "artifacts"),
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "LLM_PROVIDER": "offline" if offline else "openai",
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
