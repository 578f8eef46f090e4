"""ISO weeks in the site's time zone: "2026-W48", its days, and the instants where it starts and ends."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from django.utils import timezone

from pm_assistant.errors import InvalidInput
from pm_assistant.vocabulary import DATE_MAX, DATE_MIN

# ASCII digits only: "２０２６-W01" (full-width) is no week label.
_LABEL = re.compile(r"^([0-9]{4})-W([0-9]{2})$")


@dataclass(frozen=True, order=True)
class IsoWeek:
    """One ISO week (Monday to Sunday); an impossible week cannot be built."""

    year: int
    week: int

    def __post_init__(self) -> None:
        try:
            date.fromisocalendar(self.year, self.week, 1)
        except ValueError:
            raise InvalidInput(f"week: {self.label} is not an ISO week.", field="week") from None

    @classmethod
    def parse(cls, text: str) -> IsoWeek:
        """Read "2026-W48"; anything else is a 400 naming the week."""
        match = _LABEL.match(text.strip())
        if match is None:
            raise InvalidInput(f"week: {text[:20]!r} is not a week like 2026-W48.", field="week")
        week = cls(int(match.group(1)), int(match.group(2)))
        if not DATE_MIN <= week.monday <= DATE_MAX - timedelta(days=6):
            raise InvalidInput(f"week: {week.label} is outside {DATE_MIN.year}–{DATE_MAX.year}.", field="week")
        return week

    @classmethod
    def containing(cls, day: date) -> IsoWeek:
        iso = day.isocalendar()
        return cls(iso.year, iso.week)

    @property
    def label(self) -> str:
        return f"{self.year}-W{self.week:02d}"

    @property
    def monday(self) -> date:
        return date.fromisocalendar(self.year, self.week, 1)

    @property
    def sunday(self) -> date:
        return self.monday + timedelta(days=6)

    @property
    def previous(self) -> IsoWeek:
        return IsoWeek.containing(self.monday - timedelta(days=7))

    @property
    def next(self) -> IsoWeek:
        return IsoWeek.containing(self.monday + timedelta(days=7))

    def start(self, tz: tzinfo) -> datetime:
        """Midnight at the start of Monday in the given zone."""
        return datetime.combine(self.monday, time.min, tzinfo=tz)

    def end(self, tz: tzinfo) -> datetime:
        """Midnight at the start of the next Monday: the week is [start, end)."""
        return datetime.combine(self.monday + timedelta(days=7), time.min, tzinfo=tz)


def week_resolve(text: str | None, *, now: datetime) -> IsoWeek:
    """The week a request names: "2026-W48", "this" week, or by default the last full week."""
    today = timezone.localtime(now).date()
    current = IsoWeek.containing(today)
    if not text or text == "last":
        return current.previous
    if text == "this":
        return current
    week = IsoWeek.parse(text)
    if week > current:
        # Not begun: its figures would be a forecast, and a report states only what happened.
        raise InvalidInput(f"week: {week.label} has not begun yet; the latest is {current.label}, this week.",
                           field="week")
    return week
