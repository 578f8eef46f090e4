"""Due ranges a question may ask for: "due this week", "due before Friday", "本周到期", "周五前到期".

A range is read as the first and last due day it allows (either may be open), by the server's clock;
a day in words goes through dateparser (dates.py, by the grammar's ``due`` rule). The query answer
states the days it used, so a range is never silently widened or dropped.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from django.utils import timezone

from .dates import read_month
from .parts import Parser, due
from .query_words import DUE_RANGES

Range = tuple[date | None, date | None]


def _named(name: str, today: date) -> Range:
    """The days a named range covers (lexicon.DUE_RANGES): weeks run Monday to Sunday."""
    monday = today - timedelta(days=today.weekday())
    if name == "today":
        return today, today
    if name == "tomorrow":
        return today + timedelta(days=1), today + timedelta(days=1)
    if name == "this_week":
        return monday, monday + timedelta(days=6)
    if name == "next_week":
        return monday + timedelta(days=7), monday + timedelta(days=13)
    if name == "this_month":
        first = today.replace(day=1)
        following = (first + timedelta(days=32)).replace(day=1)
        return first, following - timedelta(days=1)
    assert name == "soon", name
    return today, today + timedelta(days=7)


def _day(p: Parser, i: int) -> Iterator[tuple[int, date]]:
    """A day at i (an ISO date or words dateparser reads), the longest reading first."""
    for end, values in due(p, i, recent=True):  # a day just gone is this year's: a range may hold it
        yield end, date.fromisoformat(values[0][1])


def _month(p: Parser, i: int) -> Iterator[tuple[int, Range]]:
    """A month at i ("December", "Dec 2026", "12月"), the longest reading first."""
    for end in range(min(p.n, i + 4), i, -1):
        if (month := read_month(p.raw(i, end))) is not None:
            yield end, month


def _ranges(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    for name in DUE_RANGES:
        for end in p.w(i, f"range.{name}"):
            yield end, name


def _bounded(bound: str, day: date) -> Range | None:
    """The range a bound and a day make; None past the calendar's ends ("before 0001-01-01")."""
    try:
        if bound == "before":
            return None, day - timedelta(days=1)
        if bound == "after":
            return day + timedelta(days=1), None
    except OverflowError:
        return None
    return (None, day) if bound == "by" else (day, day)


def due_range(p: Parser, i: int) -> Iterator[tuple[int, Range]]:
    """Every due range that starts at i: English "due <range>" / "due before <day>", Chinese "<range>到期"."""
    today = timezone.localdate()
    for j in p.w(i, "range.due"):  # "due this week", "due before Friday", "due 2026-12-31"
        for end, name in _ranges(p, j):
            yield end, _named(name, today)
        for k in p.w(j, "range.between"):  # "due between Dec 1 and Dec 10", "due from Monday to Friday"
            for m, first in _day(p, k):
                for n in p.w(m, "range.and"):
                    for end, last in _day(p, n):
                        if first <= last:
                            yield end, (first, last)
        for bound in ("before", "by", "after", "on"):
            for k in p.w(j, f"range.{bound}"):
                for end, day in _day(p, k):
                    if (bounded := _bounded(bound, day)) is not None:
                        yield end, bounded
        for end, day in _day(p, j):
            yield end, (day, day)
        yield from _month(p, j)  # "due in December": after a day in it ("due Dec 1"), which reads further
    for j, name in _ranges(p, i):  # "本周到期", "今天到期的"
        for end in p.w(j, "range.zh_due"):
            yield end, _named(name, today)
    for j, month in _month(p, i):  # "12月到期的"
        for end in p.w(j, "range.zh_due"):
            yield end, month
    for j, day in _day(p, i):  # "周五前到期", "12月31日到期"
        if any(list(p.w(k, "range.zh_by", "range.zh_after")) for k in range(i, j)):
            continue  # a bound read as part of the day ("12月31日前") is not a day
        for bound, cls in (("by", "range.zh_by"), ("after", "range.zh_after"), ("on", "")):
            for k in (p.w(j, cls) if cls else iter((j,))):
                for end in p.w(k, "range.zh_due"):
                    if (bounded := _bounded(bound, day)) is not None:
                        yield end, bounded
