"""The structured projection: a week's figures, typed and immutable, computed from the collected rows.

A task's status (and due date) at an instant is the value before the first change recorded at or
after that instant, else its current value; so a past week is reported as it ended, not as the
tasks are today. Tasks deleted since appear only in the deleted count: they have no page to link.
A task deleted after a finished week leaves that week's figures (its rows are gone), so the report
says how many were deleted since and when the last was: its figures were recomputed after them.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

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
# The lines a list shows (the first, by id); the rest are counted, and the task list filters show them.
LIST_LINES = 50


@dataclass(frozen=True)
class AssigneeFigures:
    assignee: str
    completed: int
    open: int
    overdue: int


@dataclass(frozen=True)
class WeekFigures:
    """What happened in one week (flows) and how it ended (states).

    Each list holds the ids of its first LIST_LINES tasks (by id); `sizes` says how long it is.
    """

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
    sizes: Mapping[str, int]
    per_assignee: tuple[AssigneeFigures, ...] = field(default=())

    def counts(self) -> dict[str, int]:
        """Every figure as a number: list lengths, deletions and open tasks."""
        return {**{name: self.sizes[name] for name in LISTS}, "deleted": self.deleted, "open": self.open}


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
    # False while the reported week is still going: its states are "now", not "at the end of the week".
    finished: bool = True
    # "this week", "last week" or "" (an older week): which week it is, said as the reader would.
    relation: str = ""
    # Deletions in the scope after a finished week ended: their tasks no longer count in its figures.
    later_deleted: int = 0
    later_deleted_on: str | None = None  # the day of the latest of them, ISO

    def lines(self, name: str) -> list[TaskLine]:
        """The first lines of one of the reported week's lists."""
        return [self.tasks[i] for i in getattr(self.current, name)]

    def more(self, name: str) -> int:
        """How many tasks of one of the reported week's lists are counted but not listed."""
        return self.current.sizes[name] - len(getattr(self.current, name))


class _Lines(Mapping[int, TaskLine]):
    """The collected tasks by id, each made a TaskLine when a list is read (most reports read few)."""

    def __init__(self, tasks: Iterable[Mapping[str, Any]]) -> None:
        self._rows = {t["id"]: t for t in tasks}

    def __getitem__(self, task_id: int) -> TaskLine:
        t = self._rows[task_id]
        return TaskLine(id=t["id"], key=t["key"], title=t["title"], status=t["status"], due_date=t["due_date"],
                        assignee=t["assignee"])

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


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


class _Row(NamedTuple):
    """A collected task as the projection reads it: creation parsed, no assignee as UNASSIGNED."""

    id: int
    made: float  # POSIX seconds: aware datetimes in two zones compare by converting both, each time
    who: str
    status: str
    due: str


def _state_at_end(row: _Row, history: _History, window: Window) -> tuple[int, str, str, str]:
    """A task with history: its id, assignee, status and due date as the week ended."""
    return (row.id, row.who, history.value_at(row.id, window.end, kind="status", current=row.status),
            history.value_at(row.id, window.end, kind="due_date", current=row.due))


def _first(ids: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(ids)[:LIST_LINES])


def _week_figures(rows: Sequence[_Row], counted: Sequence[Mapping[str, Any]], history: _History,
                  window: Window, nth: int) -> WeekFigures:
    """One week's lists and counts: the tasks with history replayed, the others from their grouped counts.

    `rows` holds every task with history and, of the others, at least the first LIST_LINES of each
    list; `counted` counts the others per assignee and status (figure `nth` is this week's).
    """
    start, end, changed = window.start.timestamp(), window.end.timestamp(), history.by_task
    end_date = window.end_date.isoformat()
    alive = [r for r in rows if r.made < end]
    replayed = [r for r in alive if r.id in changed]
    # A task without history is as its row says at both week ends: only the ones listed are here.
    states = [_state_at_end(r, history, window) for r in replayed]
    as_is = [(r.id, r.who, r.status, r.due) for r in alive if r.id not in changed]
    completed, reopened, slipped = [], [], []
    for r, state in zip(replayed, states, strict=True):
        status_changes = history.changed_in(r.id, window, "status")
        if state[2] == DONE and any(e["to_value"] == DONE for e in status_changes):
            completed.append(r)
        if any(e["from_value"] == DONE for e in status_changes):
            reopened.append(r.id)
        if any(e["from_value"] and e["to_value"] and e["to_value"] > e["from_value"]
               for e in history.changed_in(r.id, window, "due_date")):
            slipped.append(r.id)
    still_open = [s for s in states if s[2] != DONE]
    overdue = [s for s in still_open if s[3] and s[3] < end_date]
    created = [r.id for r in replayed if r.made >= start]
    counts = {"completed": Counter(r.who for r in completed), "open": Counter(s[1] for s in still_open),
              "overdue": Counter(s[1] for s in overdue)}
    sizes: dict[str, int] = {"completed": len(completed), "created": len(created), "reopened": len(reopened),
             "slipped": len(slipped), "overdue": len(overdue),
             **{name: sum(1 for s in still_open if s[2] == name) for name in STATUS_LISTS}}
    for group in counted:
        who, status, existing = group["assignee"] or UNASSIGNED, group["status"], group["alive"][nth]
        sizes["created"] += group["created"][nth]
        if status != DONE:
            counts["open"][who] += existing
            counts["overdue"][who] += group["due"][nth]
            sizes["overdue"] += group["due"][nth]
        if status in STATUS_LISTS:
            sizes[status] += existing
    # A Counter keeps a key added with 0: an assignee with nothing in the week is not a row.
    assignees = tuple(AssigneeFigures(assignee=who, **{k: c[who] for k, c in counts.items()})
                      for who in sorted(w for w in set(counts["completed"]) | set(counts["open"])
                                        if counts["completed"][w] or counts["open"][w]))
    deleted = sum(1 for e in history.events if e["kind"] == "deleted" and window.start <= e["at"] < window.end)
    open_as_is = [s for s in as_is if s[2] != DONE]
    return WeekFigures(
        week=window.week.label, monday=window.week.monday.isoformat(), sunday=window.week.sunday.isoformat(),
        completed=_first(r.id for r in completed),
        created=_first([*created, *(r.id for r in alive if r.id not in changed and r.made >= start)]),
        reopened=_first(reopened), slipped=_first(slipped), deleted=deleted,
        open=sum(counts["open"].values()),
        overdue=_first(s[0] for s in [*overdue, *open_as_is] if s[3] and s[3] < end_date),
        sizes=sizes, per_assignee=assignees,
        **{name: _first(s[0] for s in [*still_open, *open_as_is] if s[2] == name) for name in STATUS_LISTS})


def weeks_project(tasks: Iterable[Mapping[str, Any]], events: Iterable[Mapping[str, Any]],
                  counted: Sequence[Mapping[str, Any]], windows: Sequence[Window]) -> list[WeekFigures]:
    """Compute each week's figures from the collected rows and counts (read once for both weeks)."""
    history = _History(events)
    rows = [_Row(t["id"], _at(t["created_at"]).timestamp(), t["assignee"] or UNASSIGNED, t["status"],
                 t["due_date"] or "") for t in tasks]
    return [_week_figures(rows, counted, history, window, nth) for nth, window in enumerate(windows)]


def week_relation(week: IsoWeek, *, now: datetime) -> str:
    """"this week", "last week", or "" for an older week, as of now in the site's zone."""
    current = IsoWeek.containing(timezone.localtime(now).date())
    return {current: "this week", current.previous: "last week"}.get(week, "")


def report_project(*, scope_label: str, project_id: int | None, tasks: Sequence[Mapping[str, Any]],
                   events: Sequence[Mapping[str, Any]], counted: Sequence[Mapping[str, Any]], current: Window,
                   previous: Window, now: datetime | None = None) -> WeeklyReport:
    """Project both weeks from one collection and keep the lines of the tasks the lists name."""
    this_week, week_before = weeks_project(tasks, events, counted, [current, previous])
    finished = current.finished
    # The collection reaches until now, so it holds every deletion since the week ended. Only a task that
    # existed before the week ended counted in its figures: one created later changed nothing here (a
    # deletion logged before its creation time was kept is counted, as it may have).
    later = sorted(at for e in events if e["kind"] == "deleted" and (at := _at(e["created_at"])) >= current.end
                   and (e.get("task_created_at") is None or _at(e["task_created_at"]) < current.end))
    later_on = timezone.localtime(later[-1]).date().isoformat() if finished and later else None
    return WeeklyReport(scope_label=scope_label, project_id=project_id, current=this_week,
                        previous=week_before, tasks=_Lines(tasks), finished=finished,
                        relation=week_relation(current.week, now=now) if now else "",
                        later_deleted=len(later) if finished else 0, later_deleted_on=later_on)
