"""The structured projection: a week's figures, typed and immutable, computed from the collected rows.

A task's status (and due date) at an instant is the value before the first change recorded at or
after that instant, else its current value; so a past week is reported as it ended, not as the
tasks are today. Tasks deleted since appear only in the deleted count: they have no page to link.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from pm_assistant.vocabulary import STATUSES

from .scope import Window

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


class TaskLine(NamedTuple):
    """A task as a report lists it: its key and title, linked by id (a tuple: one per listed task)."""

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


class _Week:
    """One week's lists and counts, filled task by task."""

    def __init__(self, window: Window, history: _History) -> None:
        self.window, self.history = window, history
        self.end_date = window.end_date.isoformat()
        self.lists: dict[str, list[int]] = {name: [] for name in LISTS}
        self.per: dict[str, dict[str, int]] = defaultdict(lambda: {"completed": 0, "open": 0, "overdue": 0})
        self.open = 0

    def add(self, task: Mapping[str, Any], made: datetime) -> None:
        """Count one task into the week: its flows within the week and its state at the week's end."""
        window, lists, tid = self.window, self.lists, task["id"]
        if made >= window.end:
            return
        who = task["assignee"] or UNASSIGNED
        if window.start <= made:
            lists["created"].append(tid)
        if tid in self.history.by_task:
            status, due = self._changed(task, who)
        else:  # no history since the previous week began: its state is its row
            status, due = task["status"], task["due_date"] or ""
        if status == DONE:
            return
        self.open += 1
        mine = self.per[who]
        mine["open"] += 1
        if status in STATUS_LISTS:
            lists[status].append(tid)
        if due and due < self.end_date:
            lists["overdue"].append(tid)
            mine["overdue"] += 1

    def _changed(self, task: Mapping[str, Any], who: str) -> tuple[str, str]:
        """Count the week's changes of a task with history; return its status and due date at the week's end."""
        history, window, tid = self.history, self.window, task["id"]
        status = history.value_at(tid, window.end, kind="status", current=task["status"])
        status_changes = history.changed_in(tid, window, "status")
        if status == DONE and any(e["to_value"] == DONE for e in status_changes):
            self.lists["completed"].append(tid)
            self.per[who]["completed"] += 1
        if any(e["from_value"] == DONE for e in status_changes):
            self.lists["reopened"].append(tid)
        if any(e["from_value"] and e["to_value"] and e["to_value"] > e["from_value"]
               for e in history.changed_in(tid, window, "due_date")):
            self.lists["slipped"].append(tid)
        return status, history.value_at(tid, window.end, kind="due_date", current=task["due_date"] or "")

    def figures(self) -> WeekFigures:
        window, lists = self.window, self.lists
        deleted = sum(1 for e in self.history.events
                      if e["kind"] == "deleted" and window.start <= e["at"] < window.end)
        assignees = tuple(AssigneeFigures(assignee=name, **counts) for name, counts in sorted(self.per.items()))
        return WeekFigures(
            week=window.week.label, monday=window.week.monday.isoformat(), sunday=window.week.sunday.isoformat(),
            completed=tuple(lists["completed"]), created=tuple(lists["created"]), reopened=tuple(lists["reopened"]),
            slipped=tuple(lists["slipped"]), deleted=deleted, open=self.open, overdue=tuple(lists["overdue"]),
            in_progress=tuple(lists["in_progress"]), blocked=tuple(lists["blocked"]), per_assignee=assignees)


def weeks_project(tasks: Iterable[Mapping[str, Any]], events: Iterable[Mapping[str, Any]],
                  windows: Sequence[Window]) -> list[WeekFigures]:
    """Compute each week's figures from the collected task and history rows, in one pass over the tasks."""
    history = _History(events)
    weeks = [_Week(window, history) for window in windows]
    for task in tasks:
        made = _at(task["created_at"])
        for week in weeks:
            week.add(task, made)
    return [week.figures() for week in weeks]


def report_project(*, scope_label: str, project_id: int | None, tasks: Sequence[Mapping[str, Any]],
                   events: Sequence[Mapping[str, Any]], current: Window, previous: Window) -> WeeklyReport:
    """Project both weeks from one collection and keep the lines of the tasks the lists name."""
    this_week, week_before = weeks_project(tasks, events, [current, previous])
    named = {i for name in LISTS for i in getattr(this_week, name)}
    lines = {t["id"]: TaskLine(id=t["id"], key=t["key"], title=t["title"], status=t["status"],
                               due_date=t["due_date"], assignee=t["assignee"]) for t in tasks if t["id"] in named}
    return WeeklyReport(scope_label=scope_label, project_id=project_id, current=this_week,
                        previous=week_before, tasks=lines)
