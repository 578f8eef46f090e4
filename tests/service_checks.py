"""Whether a missing service (Redis, a Celery worker, PostgreSQL) skips a test or fails it."""
from __future__ import annotations

import os

import pytest


def services_required() -> bool:
    """CI sets REQUIRE_SERVICES=1: a test that would skip for a missing service fails instead."""
    return os.environ.get("REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str) -> None:
    if services_required():
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)
