"""Lay tasks out on a date axis for the project timeline (a Gantt-like view drawn with CSS)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

from pm_assistant.vocabulary import DATE_MAX, DATE_MIN
from tasks.models import Task

_PAD_DAYS = 2
_MIN_DAYS = 21
_MAX_DAYS = 366
# Today is drawn on the axis when it is at most this far from the tasks' dates.
_TODAY_REACH_DAYS = 60


@dataclass(frozen=True)
class Bar:
    task: Task
    start: date
    end: date
    left: float  # percent of the axis width
    width: float
    overdue: bool
    milestone: bool  # only one date is known: drawn as a marker, not a span
    clipped_start: bool
    clipped_end: bool


@dataclass(frozen=True)
class Tick:
    left: float
    label: str


@dataclass(frozen=True)
class Timeline:
    start: date | None = None
    end: date | None = None
    days: int = 0
    ticks: list[Tick] = field(default_factory=list)
    today_left: float | None = None
    bars: list[Bar] = field(default_factory=list)
    unscheduled: list[Task] = field(default_factory=list)
    outside: list[Task] = field(default_factory=list)  # dated, but beyond the longest axis drawn


def _span(task: Task) -> tuple[date, date] | None:
    start, due = task.start_date, task.due_date
    if start and due:
        return start, max(start, due)
    if start or due:
        return (start or due), (start or due)  # type: ignore[return-value]
    return None


def _ticks(start: date, days: int) -> list[Tick]:
    ticks = []
    weekly = days <= 120
    for offset in range(days):
        day = start + timedelta(days=offset)
        if weekly and day.weekday() == 0:
            ticks.append(Tick(left=100 * offset / days, label=f"{day:%b} {day.day}"))
        elif not weekly and day.day == 1:
            ticks.append(Tick(left=100 * offset / days, label=f"{day:%b %Y}"))
    return ticks


def timeline_for(*, tasks: Sequence[Task], today: date) -> Timeline:
    """Return the axis (range, ticks, today) and one bar per dated task, the rest as unscheduled."""
    spans = {task.pk: _span(task) for task in tasks}
    dated = [(task, span) for task in tasks if (span := spans[task.pk]) is not None]
    unscheduled = [task for task in tasks if spans[task.pk] is None]
    if not dated:
        return Timeline(unscheduled=unscheduled)
    # Dates are kept within DATE_MIN..DATE_MAX on write; one stored before that bound only clips its bar.
    first = max(min(span[0] for _, span in dated), DATE_MIN)
    last = min(max(span[1] for _, span in dated), DATE_MAX)
    if (first - today).days <= _TODAY_REACH_DAYS and (today - last).days <= _TODAY_REACH_DAYS:
        first, last = min(first, today), max(last, today)
    start = first - timedelta(days=_PAD_DAYS)
    days = max((last - start).days + 1 + _PAD_DAYS, _MIN_DAYS)
    days = min(days, _MAX_DAYS)
    end = start + timedelta(days=days - 1)
    bars, outside = [], []
    for task, (task_start, task_end) in sorted(dated, key=lambda item: (item[1][0], item[1][1], item[0].pk)):
        left_day = max((task_start - start).days, 0)
        right_day = min((task_end - start).days, days - 1)
        if right_day < 0 or left_day > days - 1:
            outside.append(task)
            continue
        bars.append(Bar(
            task=task, start=task_start, end=task_end,
            left=100 * left_day / days, width=100 * (right_day - left_day + 1) / days,
            overdue=bool(task.due_date and task.due_date < today and task.status != Task.Status.DONE),
            milestone=task_start == task_end and not (task.start_date and task.due_date),
            clipped_start=task_start < start, clipped_end=task_end > end,
        ))
    today_left = 100 * ((today - start).days + 0.5) / days if start <= today <= end else None
    return Timeline(start=start, end=end, days=days, ticks=_ticks(start, days), today_left=today_left,
                    bars=bars, unscheduled=unscheduled, outside=outside)
