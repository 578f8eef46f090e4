"""A pinned server clock: the suite's data and answers are the same on every machine and every day.

The app reads the clock through django.utils.timezone.now (localdate too); the bench process sets
it once, so "overdue", "last week" and every date in a prompt are fixed.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from django.utils import timezone

# A Wednesday: "last week" is 2026-W47 (November 16 to 22).
NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
_pinned = [NOW]


def _now() -> datetime:
    return _pinned[-1]


def clock_pin() -> None:
    """Make timezone.now() answer NOW (or the time set by `at`) in this process."""
    timezone.now = _now


@contextmanager
def at(moment: datetime) -> Iterator[None]:
    """Let the pinned clock read `moment` for a while (to seed history in past weeks)."""
    _pinned.append(moment)
    try:
        yield
    finally:
        _pinned.pop()
