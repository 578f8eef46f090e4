"""A seeded week in Shanghai time (UTC+8): each task's history written through the services at set instants.

Week 2026-W48 runs from Monday 23 November to Sunday 29 November 2026, local time. The figures
each test asserts are worked out by hand in ``EXPECTED_W48`` and ``EXPECTED_W47`` below.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create, task_delete, task_update

ZONE = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 12, 2, 10, 0, tzinfo=ZONE)


def local(month: int, day: int, hour: int = 10, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=ZONE)


@contextmanager
def clock_at(monkeypatch: pytest.MonkeyPatch, when: datetime) -> Iterator[None]:
    """Set the server clock the services and auto_now fields read."""
    with monkeypatch.context() as patch:
        patch.setattr(timezone, "now", lambda: when)
        yield


@dataclass
class Seeded:
    tasks: dict[str, Task]
    website: Project
    mobile: Project

    def ids(self, *names: str) -> list[int]:
        return sorted(self.tasks[n].pk for n in names)


def seed_week(monkeypatch: pytest.MonkeyPatch, *, alice: User, carol: User, website: Project,
              mobile: Project, platform: Project, bob: User) -> Seeded:
    """Write the fixture's history; see the module docstring for the week."""
    made: dict[str, Task] = {}

    def at(when: datetime, fn: Any, **kwargs: Any) -> Any:
        with clock_at(monkeypatch, when):
            return fn(**kwargs)

    def create(name: str, when: datetime, **kwargs: Any) -> None:
        kwargs.setdefault("project", website)
        made[name] = at(when, task_create, actor=kwargs.pop("actor", alice), title=name, **kwargs)

    def update(name: str, when: datetime, **kwargs: Any) -> None:
        made[name] = at(when, task_update, actor=alice, task=made[name], **kwargs)

    create("login", local(11, 18), assignee=carol)
    update("login", local(11, 19), status="in_progress")
    update("login", local(11, 28, 23, 30), status="done")            # Saturday night: W48
    create("boundary", local(11, 10), assignee=alice, due_date=date(2026, 11, 20))
    update("boundary", local(11, 23, 0, 10), status="done")         # 00:10 Monday local, still Sunday in UTC
    create("late_sunday", local(11, 10), assignee=alice)
    update("late_sunday", local(11, 22, 23, 50), status="done")     # 23:50 Sunday local: W47
    create("reopened", local(11, 12), assignee=carol, due_date=date(2026, 11, 27))
    update("reopened", local(11, 20), status="done")
    update("reopened", local(11, 25), status="in_progress")
    create("slipped", local(11, 24), assignee=alice, due_date=date(2026, 11, 26))
    update("slipped", local(11, 26), due_date=date(2026, 12, 4))
    update("slipped", local(12, 1), due_date=date(2026, 12, 10))    # after the week: W49's slip
    create("blocked", local(11, 16, 9), due_date=date(2026, 11, 25))
    update("blocked", local(11, 27), status="blocked")
    update("blocked", local(12, 1), status="in_progress")           # unblocked after the week
    create("deleted", local(11, 24))
    at(local(11, 26), task_delete, actor=alice, task=made["deleted"])
    create("next_week", local(12, 1))
    create("old_done", local(10, 1))
    update("old_done", local(10, 5), status="done")
    create("due_sunday", local(10, 1), assignee=carol, due_date=date(2026, 11, 29))
    create("mobile_task", local(11, 24), project=mobile)
    create("hidden", local(11, 24), project=platform, actor=bob)
    return Seeded(tasks=made, website=website, mobile=mobile)


# Week 2026-W48 of Website Redesign, as it ended (Monday 30 November 00:00 local).
EXPECTED_W48 = {"completed": ("login", "boundary"), "created": ("slipped",), "reopened": ("reopened",),
                "slipped": ("slipped",), "overdue": ("reopened", "blocked", "due_sunday"),
                "in_progress": ("reopened",), "blocked": ("blocked",)}
EXPECTED_W48_COUNTS = {"deleted": 1, "open": 4}
EXPECTED_W48_ASSIGNEES = {"alice": (1, 1, 0), "carol": (1, 2, 2), "unassigned": (0, 1, 1)}
# The week before (ended Monday 23 November 00:00 local).
EXPECTED_W47 = {"completed": ("late_sunday", "reopened"), "created": ("login", "blocked"), "reopened": (),
                "slipped": (), "overdue": ("boundary",), "in_progress": ("login",), "blocked": ()}
EXPECTED_W47_COUNTS = {"deleted": 0, "open": 4}


def team_week(monkeypatch: pytest.MonkeyPatch, *, alice: User, carol: User, website: Project,
              mobile: Project) -> dict[str, Task]:
    """Website: alice 6 open (2 overdue), carol none (her one task done), dave (a viewer) none, 3 unassigned
    (1 overdue), 3 done. Mobile: alice 1 open. In the week of NOW (2026-W49, from 30 November) two tasks
    were completed and one slipped."""
    made: dict[str, Task] = {}
    with clock_at(monkeypatch, local(11, 20)):
        for n in range(4):
            made[f"a{n}"] = task_create(actor=alice, project=website, title=f"alice {n}", assignee=alice)
        for n in range(2):
            made[f"late{n}"] = task_create(actor=alice, project=website, title=f"late {n}", assignee=alice,
                                           due_date=date(2026, 11, 28 + n))
        made["carol"] = task_create(actor=alice, project=website, title="carol's", assignee=carol)
        made["free_late"] = task_create(actor=alice, project=website, title="nobody late", due_date=date(2026, 12, 1))
        made["free"] = task_create(actor=alice, project=website, title="nobody")
        made["old_done"] = task_create(actor=alice, project=website, title="old", status="done")
        made["mobile"] = task_create(actor=alice, project=mobile, title="mobile", assignee=alice)
        made["slipper"] = task_create(actor=alice, project=website, title="slipper", due_date=date(2026, 12, 3))
        made["shipped"] = task_create(actor=alice, project=website, title="shipped", assignee=alice)
    with clock_at(monkeypatch, local(12, 1)):
        task_update(actor=alice, task=made["shipped"], status="done")
        task_update(actor=alice, task=made["slipper"], due_date=date(2026, 12, 9))
        task_update(actor=alice, task=made["carol"], status="done")
    return made
