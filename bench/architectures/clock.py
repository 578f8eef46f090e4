"""A pinned server clock and pinned artifact refs: the suite's data, answers and prompt figures are the
same on every machine, every day and every run.

The app reads the clock through django.utils.timezone.now (localdate too); the bench process sets
it once, so "overdue", "last week" and every date in a prompt are fixed. An artifact's ref is random
in the app, and its digits change how many tokens a prompt that names it costs; the bench draws them
from a seeded sequence instead (refs_pin).
"""
from __future__ import annotations

import random
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


# Reproducible, not secret: the refs only have to be the same on every run of the bench.
_refs = random.Random(20261125)  # noqa: S311


def _seeded_ref() -> str:
    from agent.artifacts.refs import REF_PREFIX

    return f"{REF_PREFIX}{_refs.getrandbits(48):012x}"


def refs_pin() -> None:
    """Make every artifact stored in this process take its ref from a seeded sequence."""
    from agent.artifacts import store

    store.artifact_ref_new = _seeded_ref


@contextmanager
def at(moment: datetime) -> Iterator[None]:
    """Let the pinned clock read `moment` for a while (to seed history in past weeks)."""
    _pinned.append(moment)
    try:
        yield
    finally:
        _pinned.pop()
