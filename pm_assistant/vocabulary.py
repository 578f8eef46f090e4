"""The app's words, declared once: task statuses and priorities, page names, the task key, limits.

Plain Python with no Django import, so the pure parts (the context assembler, the routers'
schemas) and the models alike derive their choices from here.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from types import MappingProxyType
from typing import Literal, get_args

Status = Literal["todo", "in_progress", "blocked", "done"]
STATUS_LABELS: Mapping[Status, str] = MappingProxyType({
    "todo": "To do", "in_progress": "In progress", "blocked": "Blocked", "done": "Done",
})
# The same labels in Chinese, for answers to questions asked in Chinese.
STATUS_LABELS_ZH: Mapping[Status, str] = MappingProxyType({
    "todo": "待办", "in_progress": "进行中", "blocked": "受阻", "done": "已完成",
})
STATUSES: tuple[Status, ...] = get_args(Status)
OPEN_STATUSES: tuple[Status, ...] = ("todo", "in_progress", "blocked")

Priority = Literal["P0", "P1", "P2", "P3"]
PRIORITY_LABELS: Mapping[Priority, str] = MappingProxyType({
    "P0": "P0 · Critical", "P1": "P1 · High", "P2": "P2 · Normal", "P3": "P3 · Low",
})
PRIORITIES: tuple[Priority, ...] = get_args(Priority)

# The pages that carry the assistant; each sends its own name as PageContext.page (docs/DESIGN.md#page-context).
Page = Literal["home", "project_list", "project_detail", "task_list", "task_detail"]
PAGES: tuple[Page, ...] = get_args(Page)
# The pages that show a table of tasks, each row with its own buttons.
TASK_TABLE_PAGES: tuple[Page, ...] = ("project_detail", "task_list")
# How a project page shows its tasks (PageContext.viewMode), with the label of each.
ViewMode = Literal["list", "board", "gantt"]
VIEW_MODE_LABELS: Mapping[ViewMode, str] = MappingProxyType({"list": "List", "board": "Board", "gantt": "Timeline"})

# Lists of tasks (the task list, a project's tasks, GET /api/tasks/): the page sizes offered, the default
# and the largest allowed.
PAGE_SIZES = (10, 25, 50, 100)
PAGE_SIZE_DEFAULT = 25
PAGE_SIZE_MAX = max(PAGE_SIZES)
# Pages up to this number may be asked for by number (an OFFSET of at most
# (PAGE_NUMBER_MAX - 1) * PAGE_SIZE_MAX rows); later ones are reached by cursor links (tasks.paging).
PAGE_NUMBER_MAX = 10

# Home shows the progress of this many of the user's projects (the project list shows them all).
HOME_PROJECTS_MAX = 8
# Home's counts stop here and show "999+": each reads at most this many index entries, so the
# workbench costs the same with 1 000 or 100 000 tasks assigned (the lists' own counts are exact).
COUNT_SHOWN_MAX = 999

# The longest message the assistant accepts, in characters (API, sidebar and service alike).
MESSAGE_MAX_CHARS = 2000

# The dates a task may carry and a weekly report may name. Far wider than any plan, and far enough
# from the calendar's ends (years 1 and 9999) that a timeline's padding or a report's previous week
# never steps off it.
DATE_MIN = date(1900, 1, 1)
DATE_MAX = date(2999, 12, 31)

# Event streams one user may hold open at once (the sidebar opens one per request, closed when its
# run ends); each holds a server thread, so one more is refused with 429 rather than queued.
STREAMS_PER_USER_MAX = 4

# The largest id a row can have (PostgreSQL's bigint); a larger number names nothing.
ID_MAX = 2**63 - 1


def task_key(project_key: str, task_id: int) -> str:
    """Return a task's key as pages and replies show it, e.g. WEB-25."""
    return f"{project_key}-{task_id}"


def choices(labels: Mapping[str, str]) -> list[tuple[str, str]]:
    """Return (value, label) pairs for a form, serializer or model field."""
    return list(labels.items())
