"""Pages of a task list: page numbers for the first few pages, cursors (keyset) for every other.

A cursor names a position in the lists' one order (tasks.ordering: due date, none last, then id)
and a direction. The page after it is the first rows beyond that position, the page before it the
last rows before it, and the last page the list read backwards: each is one index range, so the
last of 100 000 tasks costs what the first costs (the list's length, from the counters where they
can say, and one bounded read), never an OFFSET through the rows before it. Page numbers stop at
PAGE_NUMBER_MAX, where an OFFSET is still short.
"""
from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass
from datetime import date
from typing import Literal

from django.db.models import QuerySet

from pm_assistant.errors import InvalidInput, NotFound
from pm_assistant.vocabulary import ID_MAX, PAGE_NUMBER_MAX

from .models import Task
from .ordering import NO_DUE_DATE, RowCompare, beyond, task_order

Direction = Literal["after", "before", "last"]
_CODES: dict[Direction, str] = {"after": "a", "before": "b", "last": "l"}
_DIRECTIONS = {code: direction for direction, code in _CODES.items()}
_CURSOR_MAX_CHARS = 100
# Where a page starts is carried for display only ("Showing 26–50", the page number); far above any list.
_START_MAX = 10**9


@dataclass(frozen=True)
class Cursor:
    """A position in the list and which way to read from it; ``start`` is where the page begins (display)."""

    direction: Direction
    key: date | None = None
    task_id: int | None = None
    start: int = 0

    def __str__(self) -> str:
        key = self.key.isoformat() if self.key else ""
        raw = f"{_CODES[self.direction]}|{key}|{self.task_id or ''}|{self.start}"
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


LAST = Cursor("last")


def cursor_decode(raw: str, *, field: str = "cursor") -> Cursor:
    """Read a cursor this module wrote; anything else is InvalidInput naming the field."""
    problem = InvalidInput(f"{field}: is not a cursor of this list; start again from the first page.", field=field)
    if not raw or len(raw) > _CURSOR_MAX_CHARS:
        raise problem
    try:
        text = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)).decode("ascii")
        code, key, task_id, start = text.split("|")
        direction = _DIRECTIONS[code]
        if direction == "last":
            if key or task_id:
                raise ValueError(text)
            return LAST
        cursor = Cursor(direction, date.fromisoformat(key), int(task_id), int(start))
    except (binascii.Error, UnicodeDecodeError, ValueError, KeyError):
        raise problem from None
    if cursor.task_id is None or not 1 <= cursor.task_id <= ID_MAX or not 0 <= cursor.start <= _START_MAX:
        raise problem
    return cursor


def _beyond(cursor: Cursor, *, forward: bool) -> RowCompare:
    if cursor.key is None or cursor.task_id is None:  # cursor_decode never makes one
        raise InvalidInput("cursor: names no position.", field="cursor")
    return beyond(key=cursor.key, task_id=cursor.task_id, forward=forward)


def _key(task: Task) -> date:
    return task.due_date or NO_DUE_DATE


@dataclass(frozen=True)
class TaskPage:
    """One page of a list with what its links need."""

    items: list[Task]
    count: int
    start: int
    page_size: int
    next: Cursor | None
    previous: Cursor | None
    last: Cursor | None

    @property
    def number(self) -> int:
        return self.start // self.page_size + 1

    @property
    def num_pages(self) -> int:
        return max(1, math.ceil(self.count / self.page_size))

    @property
    def start_index(self) -> int:
        return self.start + 1 if self.items else 0

    @property
    def end_index(self) -> int:
        return self.start + len(self.items)

    @property
    def page_numbers(self) -> range:
        """The pages that may be linked by number."""
        return range(1, min(self.num_pages, PAGE_NUMBER_MAX) + 1)

    @property
    def pager(self) -> list[tuple[str, int]]:
        """The pager's middle: ("page", n) links by number, ("current", n), ("gap", 0) and ("last", n)."""
        items = [("current" if n == self.number else "page", n) for n in self.page_numbers]
        shown = self.page_numbers[-1]
        if self.number > shown:
            items += [("gap", 0)] if self.number > shown + 1 else []
            items.append(("current", self.number))
            shown = self.number
        if self.last is not None and self.num_pages > shown:
            items += [("gap", 0)] if self.num_pages > shown + 1 else []
            items.append(("last", self.num_pages))
        return items


def task_page(tasks: QuerySet[Task], *, page_size: int, page: int = 1, cursor: Cursor | None = None,
              count: int | None = None) -> TaskPage:
    """Return one page of the tasks: by number (at most PAGE_NUMBER_MAX) or from a cursor.

    Two statements whichever page it is: the count (unless given, as tasks.counts.task_list_count
    gives it) and one read of at most page_size + 1 rows. A page number past the list is NotFound
    naming ``page``.
    """
    if cursor is None and not 1 <= page <= PAGE_NUMBER_MAX:
        raise InvalidInput(f"page: must be 1..{PAGE_NUMBER_MAX}; later pages are reached with the next and "
                           "last links.", field="page")
    count = tasks.count() if count is None else count
    forward, backward = tasks.order_by(*task_order()), tasks.order_by(*task_order(reverse=True))
    if cursor is None:
        start = (page - 1) * page_size
        if page > 1 and start >= count:
            raise NotFound(f"page: page {page} does not exist for this list.", field="page")
        rows = list(forward[start:start + page_size + 1])
        more, items, has_previous = len(rows) > page_size, rows[:page_size], start > 0
    elif cursor.direction == "after":
        rows = list(forward.filter(_beyond(cursor, forward=True))[:page_size + 1])
        more, items, has_previous, start = len(rows) > page_size, rows[:page_size], True, cursor.start
    elif cursor.direction == "before":
        rows = list(backward.filter(_beyond(cursor, forward=False))[:page_size + 1])
        has_previous, items, more = len(rows) > page_size, rows[:page_size][::-1], True
        start = max(cursor.start, 1) if has_previous else 0
    else:
        # The last page holds what the numbered pages would leave for it, so page numbers stay whole.
        on_last = count - (math.ceil(count / page_size) - 1) * page_size if count else 0
        items = list(backward[:on_last])[::-1]
        start, more = count - len(items), False
        has_previous = start > 0
    # A cursor's start is only carried for display: keep it within the list as it is now.
    start = min(start, max(count - len(items), 0))
    return TaskPage(
        items=items, count=count, start=start, page_size=page_size,
        next=Cursor("after", _key(items[-1]), items[-1].pk, start + len(items)) if more and items else None,
        previous=Cursor("before", _key(items[0]), items[0].pk, max(start - page_size, 0))
        if has_previous and items else None,
        last=LAST if more else None,
    )
