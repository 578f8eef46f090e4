"""Statements counted, not timed: a read whose statements stay the same however many tasks it reads."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext


def statements_of(run: Callable[[], Any]) -> int:
    """How many SQL statements `run()` sends."""
    with CaptureQueriesContext(connection) as captured:
        run()
    return len(captured.captured_queries)


def statements_constant(run: Callable[[], Any], *, grow: Callable[[], Any]) -> int:
    """Assert `run()` sends as many statements after `grow()` adds data as before it; return how many.

    `run()` is called once first, uncounted: the first request of a test loads the session, the content
    types and the like, which later ones do not.
    """
    run()
    few = statements_of(run)
    grow()
    many = statements_of(run)
    assert many == few, f"{few} statements before the data grew, {many} after"
    return few
