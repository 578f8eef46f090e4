"""Every breakdown run a test leaves behind must pass the four-point audit."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from agent.models import Run
from agent.run.audit import run_audit


@pytest.fixture(autouse=True)
def _every_breakdown_passes_the_audit(db: Any) -> Iterator[None]:
    yield
    for run in Run.objects.filter(capability="decompose"):
        report = run_audit(run)
        assert report.passed, report.as_dict()
