"""Dates in words as the reader takes them (agent/reading/dates.py): the day a phrase names, or none.

A phrase that names no day ("2026", "in 2027", "June 2026", "2026年", "next month") is none: "2026年"
is not 2026 years from now, nor "in 2027" today's day in 2027. A day lies in the year the phrase
names; a phrase that names none is read within ten years of today.
"""
from __future__ import annotations

from datetime import date

import pytest
from django.utils import timezone

from agent.reading.dates import read_date
from agent.reading.reader import read


def _year() -> int:
    return timezone.localdate().year


@pytest.mark.parametrize(("words", "day"), [
    ("{y}年年底", (0, 12, 31)), ("{y}年底", (0, 12, 31)), ("{y}年末", (0, 12, 31)), ("end of {y}", (0, 12, 31)),
    ("{y} year-end", (0, 12, 31)), ("明年年底", (1, 12, 31)), ("{y}年12月31号", (0, 12, 31)),
    ("{y}年12月31日", (0, 12, 31)), ("{next}年1月5号", (1, 1, 5)), ("Dec 31, {y}", (0, 12, 31)),
])
def test_a_year_by_its_number_and_its_end_are_read(words: str, day: tuple[int, int, int]) -> None:
    year = _year()
    assert read_date(words.format(y=year, next=year + 1)) == date(year + day[0], day[1], day[2])


@pytest.mark.parametrize("words", ["{y}", "{y}年", "in {next}", "June {y}", "December {y}", "{y}年12月", "next month",
                                   "下个月", "明年", "in 50 years", "0000年底", "end of 0000", "2月30号"])
def test_a_phrase_that_names_no_day_or_none_that_is_is_none(words: str) -> None:
    assert read_date(words.format(y=_year(), next=_year() + 1)) is None


def test_a_day_in_the_year_it_names_is_read_however_far() -> None:
    far = _year() + 14
    assert read_date(f"Dec 31, {far}") == date(far, 12, 31)
    assert read_date(f"{far}年底") == date(far, 12, 31)


@pytest.mark.parametrize("message", ["把任务5的截止日期改到{y}年年底", "任务5截止日期改到{y}年底",
                                     "set task 5 due to end of {y}"])
def test_a_due_date_by_the_years_end_is_the_31st_of_december(message: str) -> None:
    reading = read(message.format(y=_year()))
    assert reading.change is not None
    assert reading.change.values == (("due_date", date(_year(), 12, 31).isoformat()),)


def test_a_due_date_that_names_only_a_year_is_not_a_change() -> None:
    reading = read(f"任务5截止日期改到{_year()}年")
    assert reading.change is None or all(field != "due_date" for field, _ in reading.change.values)


def test_a_message_of_hundreds_of_numbers_reads_a_bounded_number_of_spans_for_dates(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import agent.reading.parts as parts

    calls: list[str] = []
    monkeypatch.setattr(parts, "read_date", lambda words, recent=False: calls.append(words))
    read(" ".join(str(n) for n in range(1, 600)))  # every number may start a date of up to eight words
    assert 0 < len(calls) <= parts._DAY_READS
    calls.clear()
    read(" ".join(str(n) for n in range(1, 600)))  # the same message again: read once a day
    assert calls == []
