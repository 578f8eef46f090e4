"""The structured projection: a week's figures, typed and immutable, computed from the collected rows.

A task's status (and due date) at an instant is the value before the first change recorded at or
after that instant, else its current value; so a past week is reported as it ended, not as the
tasks are today. Tasks deleted since appear only in the deleted count: they have no page to link.
A task deleted after a finished week leaves that week's figures (its rows are gone), so the report
says how many were deleted since and when the last was: its figures were recomputed after them.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from pm_assistant.vocabulary import STATUSES

from .scope import Window
from .week import IsoWeek

DONE = "done"
UNASSIGNED = "unassigned"
# The lists of a week, in the order the report shows them.
LISTS = ("completed", "created", "reopened", "slipped", "overdue", "in_progress", "blocked")
# The lists named after a status: the open tasks in that status at the week's end.
STATUS_LISTS = tuple(name for name in LISTS if name in STATUSES)


@dataclass(frozen=True)
class AssigneeFigures:
    assignee: str
    completed: int
    open: int
    overdue: int


@dataclass(frozen=True)
class WeekFigures:
    """What happened in one week (flows) and how it ended (states); every list holds task ids."""

    week: str
    monday: str
    sunday: str
    completed: tuple[int, ...]
    created: tuple[int, ...]
    reopened: tuple[int, ...]
    slipped: tuple[int, ...]
    deleted: int
    open: int
    overdue: tuple[int, ...]
    in_progress: tuple[int, ...]
    blocked: tuple[int, ...]
    per_assignee: tuple[AssigneeFigures, ...] = field(default=())

    def counts(self) -> dict[str, int]:
        """Every figure as a number: list lengths, deletions and open tasks."""
        return {**{name: len(getattr(self, name)) for name in LISTS}, "deleted": self.deleted, "open": self.open}


@dataclass(frozen=True)
class TaskLine:
    """A task as a report lists it: its key and title, linked by id."""

    id: int
    key: str
    title: str
    status: str
    due_date: str | None
    assignee: str | None


@dataclass(frozen=True)
class WeeklyReport:
    scope_label: str
    project_id: int | None
    current: WeekFigures
    previous: WeekFigures
    tasks: Mapping[int, TaskLine]
    # False while the reported week is still going: its states are "now", not "at the end of the week".
    finished: bool = True
    # "this week", "last week" or "" (an older week): which week it is, said as the reader would.
    relation: str = ""
    # Deletions in the scope after a finished week ended: their tasks no longer count in its figures.
    later_deleted: int = 0
    later_deleted_on: str | None = None  # the day of the latest of them, ISO

    def lines(self, name: str) -> list[TaskLine]:
        return [self.tasks[i] for i in getattr(self.current, name)]


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


class _History:
    """The collected history, indexed per task, to read a task's status or due date at an instant."""

    def __init__(self, events: Iterable[Mapping[str, Any]]) -> None:
        self.events = [{**e, "at": _at(e["created_at"])} for e in events]
        self.by_task: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for event in self.events:
            if event["task_id"] is not None:
                self.by_task[event["task_id"]].append(event)

    def value_at(self, task_id: int, when: datetime, *, kind: str, current: str) -> str:
        for event in self.by_task.get(task_id, ()):  # oldest first
            if event["at"] >= when and self._is(event, kind):
                return str(event["from_value"])
        return current

    def changed_in(self, task_id: int, window: Window, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.by_task.get(task_id, ()) if window.start <= e["at"] < window.end and self._is(e, kind)]

    @staticmethod
    def _is(event: Mapping[str, Any], kind: str) -> bool:
        if kind == "due_date":
            return event["kind"] == "updated" and event["field"] == "due_date"
        return bool(event["kind"] == kind)


def week_project(tasks: Iterable[Mapping[str, Any]], events: Iterable[Mapping[str, Any]],
                 window: Window) -> WeekFigures:
    """Compute one week's figures from the collected task and history rows."""
    history = _History(events)
    lists: dict[str, list[int]] = {name: [] for name in LISTS}
    per: dict[str, dict[str, int]] = defaultdict(lambda: {"completed": 0, "open": 0, "overdue": 0})
    open_count = 0
    end_date = window.end_date.isoformat()
    for task in tasks:
        tid = task["id"]
        if _at(task["created_at"]) >= window.end:
            continue
        who = task["assignee"] or UNASSIGNED
        status = history.value_at(tid, window.end, kind="status", current=task["status"])
        due = history.value_at(tid, window.end, kind="due_date", current=task["due_date"] or "")
        status_changes = history.changed_in(tid, window, "status")
        if window.start <= _at(task["created_at"]):
            lists["created"].append(tid)
        if status == DONE and any(e["to_value"] == DONE for e in status_changes):
            lists["completed"].append(tid)
            per[who]["completed"] += 1
        if any(e["from_value"] == DONE for e in status_changes):
            lists["reopened"].append(tid)
        if any(e["from_value"] and e["to_value"] and e["to_value"] > e["from_value"]
               for e in history.changed_in(tid, window, "due_date")):
            lists["slipped"].append(tid)
        if status == DONE:
            continue
        open_count += 1
        per[who]["open"] += 1
        if status in STATUS_LISTS:
            lists[status].append(tid)
        if due and due < end_date:
            lists["overdue"].append(tid)
            per[who]["overdue"] += 1
    deleted = sum(1 for e in history.events if e["kind"] == "deleted" and window.start <= e["at"] < window.end)
    assignees = tuple(AssigneeFigures(assignee=name, **counts) for name, counts in sorted(per.items()))
    return WeekFigures(
        week=window.week.label, monday=window.week.monday.isoformat(), sunday=window.week.sunday.isoformat(),
        completed=tuple(lists["completed"]), created=tuple(lists["created"]), reopened=tuple(lists["reopened"]),
        slipped=tuple(lists["slipped"]), deleted=deleted, open=open_count, overdue=tuple(lists["overdue"]),
        in_progress=tuple(lists["in_progress"]), blocked=tuple(lists["blocked"]), per_assignee=assignees)


def week_relation(week: IsoWeek, *, now: datetime) -> str:
    """"this week", "last week", or "" for an older week, as of now in the site's zone."""
    current = IsoWeek.containing(timezone.localtime(now).date())
    return {current: "this week", current.previous: "last week"}.get(week, "")


def report_project(*, scope_label: str, project_id: int | None, tasks: Sequence[Mapping[str, Any]],
                   events: Sequence[Mapping[str, Any]], current: Window, previous: Window,
                   now: datetime | None = None) -> WeeklyReport:
    """Project both weeks from one collection and keep the lines of the tasks the lists name."""
    this_week = week_project(tasks, events, current)
    named = {i for name in LISTS for i in getattr(this_week, name)}
    lines = {t["id"]: TaskLine(id=t["id"], key=t["key"], title=t["title"], status=t["status"],
                               due_date=t["due_date"], assignee=t["assignee"]) for t in tasks if t["id"] in named}
    finished = current.finished
    # The collection reaches until now, so it holds every deletion since the week ended.
    later = sorted(at for e in events if e["kind"] == "deleted" and (at := _at(e["created_at"])) >= current.end)
    later_on = timezone.localtime(later[-1]).date().isoformat() if finished and later else None
    return WeeklyReport(scope_label=scope_label, project_id=project_id, current=this_week,
                        previous=week_project(tasks, events, previous), tasks=lines, finished=finished,
                        relation=week_relation(current.week, now=now) if now else "",
                        later_deleted=len(later) if finished else 0, later_deleted_on=later_on)
