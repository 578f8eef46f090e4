"""What a report covers: one project, or all the user's projects, and the instants of its weeks."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from projects.selectors import project_get_for_user, project_list_for_user

from .week import IsoWeek

ALL_PROJECTS = "All my projects"


@dataclass(frozen=True)
class ReportScope:
    """The projects a report reads, checked against the user's memberships when it is made."""

    project_ids: tuple[int, ...]
    label: str
    project_id: int | None = None  # None: all the user's projects


def scope_for_user(*, user: AbstractBaseUser | AnonymousUser, project_id: int | None) -> ReportScope:
    """One project the user is a member of, or every project they are a member of."""
    if project_id is not None:
        project = project_get_for_user(user=user, project_id=project_id)  # type: ignore[arg-type]
        return ReportScope(project_ids=(project.pk,), label=project.name, project_id=project.pk)
    ids = tuple(project_list_for_user(user=user).values_list("pk", flat=True))  # type: ignore[arg-type]
    return ReportScope(project_ids=ids, label=ALL_PROJECTS)


@dataclass(frozen=True)
class Window:
    """One week as instants in the site's zone. A week still going ends now, not on Sunday night."""

    week: IsoWeek
    start: datetime
    end: datetime

    @property
    def finished(self) -> bool:
        """The week is over: the window reaches its Sunday midnight, not only until now."""
        return self.end >= self.week.end(timezone.get_current_timezone())

    @property
    def end_date(self) -> date:
        """The first day after the window: a task due before it and still open is overdue."""
        local = timezone.localtime(self.end)
        # The week's own end (Monday 00:00) is the next day; "now" is today, still within its due date.
        return local.date()


@dataclass(frozen=True)
class ReportWindows:
    """The reported week and the week before it, for comparison; `now` is the server clock."""

    current: Window
    previous: Window
    now: datetime

    @classmethod
    def for_week(cls, week: IsoWeek, *, now: datetime) -> ReportWindows:
        tz = timezone.get_current_timezone()
        end = min(week.end(tz), now)
        start = week.start(tz)
        return cls(current=Window(week, start, max(start, end)),
                   previous=Window(week.previous, week.previous.start(tz), start), now=now)
