"""Dates in words, English or Chinese ("Friday", "next Monday", "Dec 31", "明天", "下周五", "12月31日"), by dateparser.

Read here, because dateparser does not read them (or not reliably): the ends of this year and this
month ("end of the year", "年底", "月底") and of a year by its number ("end of 2026", "2026年底",
"明年年底"), "下周X", "M月D日" with or without its year ("2026年12月31号", "明年3月1日"), and "12/31" or
"12.31". Of Chinese, dateparser is asked only for today, tomorrow, "N天后" and a weekday.

A phrase that could name two days is none, so the change asks: "3/4" (March 4 or April 3), "1.5" or
"12.10" (a version as much as a day), "next Friday" (this week's or the next), a time ("5pm": today
or tomorrow?), and a month and day just gone ("Dec 6" said on Dec 7: a day missed, or next year's?).

A phrase that names no day is no date: a year, a month or a week alone ("2026", "in 2027", "June
2026", "2026年", "next month", "next week"), or a day of no month ("the 3rd", "15日"), which
dateparser would complete with today's day (or read "2026年" as 2026 years from now). A day
dateparser reads must lie in the year the phrase names, if it names one; a phrase that names none
is read within ten years of today.

The grammar asks only where its rule expects a date, so a word elsewhere is never taken for one.
The result is the day, by the server's clock.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

import dateparser  # type: ignore[import-untyped]
from django.utils import timezone

_SETTINGS = {"PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False}
_WEEKDAYS_ZH = "一二三四五六日天"
# A weekday of this week or the next, in Chinese: "本周日", "这周五", "下周三".
_WEEK_DAY_ZH = re.compile(rf"^(下|本|这)(?:周|星期|个星期)([{_WEEKDAYS_ZH}])$")
# A fraction of a unit ("in 1.5 weeks"): which day?
_FRACTION = re.compile(r"\bin\s+\d+[.,]\d|(?<![\d.])\d+[.,]\d+\s*[a-z\u4e00-\u9fff]", re.IGNORECASE)
# No year named, and further off than this: no day anyone means ("Feb 29" read as 2028-02-29).
_YEAR_ON = timedelta(days=366)
_MONTH_DAY_ZH = re.compile(r"^(?:(\d{4})\s*年\s*|(明年|今年))?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]$")
# The end of a year named by its number, or next year's: "end of 2026", "2026年底", "2026年年末", "明年年底".
_YEAR_END_NAMED = re.compile(r"^(?:(?:the\s+)?end\s+of\s+(\d{4})|(\d{4})\s*(?:year[- ]end|年\s*年?[底末])"
                          r"|(明年)年?[底末])$", re.IGNORECASE)
# A year in figures ("2026", "2026年"): a phrase that holds one names its year.
YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# A month's words: its name, its first three letters, and "sept".
_MONTH_ABBREVIATIONS = tuple(m[:3] for m in MONTHS)
_WEEKDAY_ABBREVIATIONS = tuple(d[:3] for d in WEEKDAYS)
MONTH_WORDS = frozenset((*MONTHS, *_MONTH_ABBREVIATIONS, "sept"))
_MONTH_STARTS = "|".join(_MONTH_ABBREVIATIONS)
_WEEKDAY_STARTS = "|".join(_WEEKDAY_ABBREVIATIONS)
_MONTHS = rf"(?:{_MONTH_STARTS}|sept)[a-z]*\.?"
# A weekday, then the day it falls on ("Friday Dec 18", "Fri, 18 December"): read only when the two agree.
_WEEKDAY_OF_WEEK = re.compile(rf"^({_WEEKDAY_STARTS})[a-z]*\s+(this|next)\s+week$", re.IGNORECASE)
_WEEKDAY_AND_DAY = re.compile(rf"^({_WEEKDAY_STARTS})[a-z]*\.?\s*,?\s*(?:the\s+)?(.+)$", re.IGNORECASE)
# A year or a month with no day: "2026", "in 2027", "June", "June 2026", "2026年", "2026年12月", "下个月", "明年".
_NO_DAY = re.compile(rf"^(?:in\s+)?(?:\d{{4}}|{_MONTHS}(?:\s+of)?(?:\s*,?\s*\d{{4}})?|\d{{4}}\s+{_MONTHS}"
                     r"|\d{1,2}\s*[/.]\s*\d{4}|\d{4}\s*[/.]\s*\d{1,2}"
                     r"|(?:next|this|last)\s+(?:week|month|year)|in\s+\d+)$"
                     r"|^(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?$"  # "the 3rd", "10": which month's?
                     r"|^(?:\d{4}\s*年)?\s*(?:\d{1,2}\s*月份?)?$|^(?:下|本|这|上)个?(?:月|周|星期|礼拜)$|^(?:明|今|去)年$",
                     re.IGNORECASE)
# A month and a day in figures: "12/31", "12.31" (dateparser reads the dotted one as tomorrow); with the year
# first: "2026.12.31", "2026/12/31".
_MONTH_DAY = re.compile(r"^(\d{1,2})\s*([/.])\s*(\d{1,2})$")
# A day in figures with its year last: "1/2/2027" is January 2 or February 1.
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*\d{2,4}$")
# "next Friday": this coming one to some, the one after to others; a time of day ("5pm", "17:00").
_TWO_READINGS = re.compile(rf"^next\s+(?:{_WEEKDAY_STARTS})[a-z]*$|\d\s*(?:am|pm)\b|\d:\d\d", re.IGNORECASE)
# A month and day that passed less than this long ago is no day of next year's: which was meant?
_JUST_GONE = timedelta(days=60)
_YEAR_MONTH_DAY = re.compile(r"^(\d{4})\s*[/.]\s*(\d{1,2})\s*[/.]\s*(\d{1,2})$")
_WEEKDAYS = rf"(?:{_WEEKDAY_STARTS})[a-z]*"
# Read wrongly by dateparser, so not read at all: a weekday with a number ("friday the 11th" is November
# to it, "12 by friday" December), and a number not followed by a month ("3 days": from today, or from
# the due date, as "postpone task 5 3 days" means?).
_UNREAD = re.compile(rf"\b{_WEEKDAYS}\b.*\d|\d.*\b{_WEEKDAYS}\b|^\d+(?:st|nd|rd|th)?\s+(?!{_MONTHS}(?:\s|$|,))",
                     re.IGNORECASE)
# Chinese dateparser reads unreliably ("15日" is 15 days on, "明年3月1日" today's day next year): only
# these forms of its, besides the ones read here.
_ZH_DATEPARSER = re.compile(r"^(?:今天|明天|后天|大后天|\d{1,3}\s*天(?:后|之后|以后)"
                            r"|(?:这|本)?(?:周|星期|礼拜)[一二三四五六日天])$")
# How far from today a phrase that names no year may be read; anything further is a misreading.
_YEARS_AROUND = 10
# Words a date in words may start with: anything else is not tried.
_STARTS = re.compile(rf"^(?:\d|{_WEEKDAY_STARTS}|{_MONTH_STARTS}|today|"
                     r"tomorrow|tonight|next|this|end|in|the|明|后|今|下|本|这|周|星期|礼拜)", re.IGNORECASE)
# The ends of this year and this month, which dateparser does not read.
_YEAR_END = ("end of the year", "end of year", "the end of the year", "year end", "year-end", "年底", "年末",
             "今年年底", "今年年末")
_MONTH_END = ("end of the month", "end of month", "the end of the month", "month end", "月底", "月末", "本月底",
              "这个月底")
_PERIOD_ENDS = frozenset(_YEAR_END + _MONTH_END)


def read_date(words: str, *, recent: bool = False) -> date | None:
    """The day a phrase names, or None. ``recent``: a month and day just gone is this year's (a question's
    range, "due between Dec 1 and Dec 10"), not a day that reads two ways (a new due date, "due Dec 1")."""
    words = words.strip()
    if not words or not _STARTS.match(words) and words.lower() not in _PERIOD_ENDS:
        return None
    today = timezone.localdate()
    if words.lower() in _YEAR_END:
        return date(today.year, 12, 31)
    year_end = _YEAR_END_NAMED.match(words)
    if year_end:
        number = year_end.group(1) or year_end.group(2)
        return _day(int(number) if number else today.year + 1, 12, 31)
    if words.lower() in _MONTH_END:
        return (today.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
    week_day_zh = _WEEK_DAY_ZH.match(words)
    if week_day_zh:  # "本周日" is this week's Sunday
        weekday = min(_WEEKDAYS_ZH.index(week_day_zh.group(2)), 6)
        return _in_week(today, weekday, next_week=week_day_zh.group(1) == "下", recent=recent)
    month_day = _MONTH_DAY_ZH.match(words)
    if month_day:
        year, named, month, day_of = month_day.groups()
        if year or named:
            return _day(int(year) if year else today.year + (named == "明年"), int(month), int(day_of))
        return _next(int(month), int(day_of), today, recent=recent)
    of_week = _WEEKDAY_OF_WEEK.match(words)
    if of_week:  # "Friday next week": that week's Friday
        weekday = _WEEKDAY_ABBREVIATIONS.index(of_week.group(1).lower())
        return _in_week(today, weekday, next_week=of_week.group(2).lower() == "next", recent=recent)
    named = _WEEKDAY_AND_DAY.match(words)
    if named and re.match(rf"\d|{_MONTHS}", named.group(2), re.IGNORECASE):
        falls = read_date(named.group(2), recent=recent)
        weekday = _WEEKDAY_ABBREVIATIONS.index(named.group(1).lower())
        return falls if falls is not None and falls.weekday() == weekday else None
    if _NO_DAY.match(words) or _UNREAD.search(words) or _TWO_READINGS.search(words) or _FRACTION.search(words):
        return None
    either = _DAY_MONTH_YEAR.match(words)
    if either and int(either.group(1)) <= 12 and int(either.group(2)) <= 12 and either.group(1) != either.group(2):
        return None
    full = _YEAR_MONTH_DAY.match(words)
    if full:
        return _day(int(full.group(1)), int(full.group(2)), int(full.group(3)))
    figures = _MONTH_DAY.match(words)
    if figures:
        month, mark, day_of = int(figures.group(1)), figures.group(2), int(figures.group(3))
        # "3/4" is March 4 or April 3; "1.5" and "12.10" are versions as much as days: only "12.31" is one.
        if mark == "." and day_of <= 12 or mark == "/" and day_of <= 12 and month != day_of:
            return None
        return _next(month, day_of, today, recent=recent)
    chinese = re.search(r"[\u4e00-\u9fff]", words) is not None
    if chinese and not _ZH_DATEPARSER.match(words):
        return None
    language = ["zh"] if chinese else ["en"]
    found = dateparser.parse(words, languages=language, settings=_SETTINGS)
    if found is None:
        return None
    years = {int(year) for year in YEAR.findall(words)}
    if years:  # the year named, and no other
        return found.date() if years == {found.year} else None
    day = found.date()
    earlier = _day(day.year - 1, day.month, day.day)
    if earlier is not None and earlier >= today:  # "dec 7" said on Dec 7 is today, not a year on
        day = earlier
    elif earlier is not None and today - earlier <= _JUST_GONE:  # "Dec 6" said on Dec 7
        return earlier if recent else None
    if day - today > _YEAR_ON:
        return None
    return day if abs(day.year - today.year) <= _YEARS_AROUND else None


# A month, for a question's due range: "December", "Dec 2026", "12月", "2026年12月" (a whole word of the month's:
# "marketing" is none).
_MONTH_EN = re.compile(r"^([a-z]+)\.?(?:\s*,?\s*(\d{4}))?$", re.IGNORECASE)
_MONTH_ZH = re.compile(r"^(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月份?$")


def read_month(words: str) -> tuple[date, date] | None:
    """The first and last day of the month a phrase names ("December", "12月", "Dec 2026"), or None. With no
    year it is this month or the next one of that name."""
    words = words.strip()
    english, chinese = _MONTH_EN.match(words), _MONTH_ZH.match(words)
    if english and english.group(1).lower() in MONTH_WORDS:
        month, year = _MONTH_ABBREVIATIONS.index(english.group(1).lower()[:3]) + 1, english.group(2)
    elif chinese and 1 <= int(chinese.group(2)) <= 12:
        month, year = int(chinese.group(2)), chinese.group(1)
    else:
        return None
    today = timezone.localdate()
    first = date(int(year) if year else today.year + (month < today.month), month, 1)
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return first, following - timedelta(days=1)


def _in_week(today: date, weekday: int, *, next_week: bool, recent: bool) -> date | None:
    """That weekday of this week or the next; a day of this week already gone reads two ways (None), unless
    ``recent``."""
    day = today - timedelta(days=today.weekday()) + timedelta(days=weekday + 7 * next_week)
    return day if day >= today or recent else None


def _next(month: int, day: int, today: date, *, recent: bool = False) -> date | None:
    """That month and day this year, or next year once it has passed; None when there is none."""
    this_year = _day(today.year, month, day)
    if this_year is None or this_year >= today:
        return this_year
    if today - this_year <= _JUST_GONE:
        return this_year if recent else None
    return _day(today.year + 1, month, day)


def _day(year: int, month: int, day: int) -> date | None:
    """That day, or None when there is none ("Feb 30", the year 0)."""
    try:
        return date(year, month, day)
    except ValueError:
        return None
