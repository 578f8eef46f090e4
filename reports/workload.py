"""Who has what: open and overdue tasks per assignee over a scope, and who is overloaded.

Three statements whatever the number of tasks: the open (and done) counts from the counters the database keeps
(tasks.models.TaskCount, per project, status and assignee), the overdue ones from the tasks due
before today (an index range), and the names of the assignees and of the project's members (who may
have none). An assignee is overloaded in a project when their open tasks are at least RISK_LOAD_RATIO
times the project's median and above it: the delay-risk rule for the assignee's load (reports.risk).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date
from statistics import median

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum

from projects.models import Membership
from tasks.models import Task, TaskCount

from .scope import ReportScope

DONE = Task.Status.DONE
NOBODY = 0  # TaskCount's assignee key for a task with no assignee


@dataclass(frozen=True)
class AssigneeLoad:
    """One person's open and overdue tasks in the scope; id None for the unassigned tasks."""

    id: int | None
    name: str | None
    open: int
    overdue: int
    overloaded: bool


@dataclass(frozen=True)
class Workload:
    today: str
    open_tasks: int
    done_tasks: int
    overdue_tasks: int
    # Every assignee with open tasks and every member without, most open first; the unassigned last.
    people: tuple[AssigneeLoad, ...]

    def overloaded(self) -> tuple[AssigneeLoad, ...]:
        return tuple(p for p in self.people if p.overloaded)


def _overloaded(per_project: dict[int, dict[int, int]]) -> set[int]:
    """The assignees whose open tasks in some project reach RISK_LOAD_RATIO × its median and exceed it."""
    ratio, found = settings.RISK_LOAD_RATIO, set()
    for loads in per_project.values():
        counts = [n for who, n in loads.items() if who != NOBODY]
        mid = median(counts) if counts else 0
        found |= {who for who, n in loads.items() if who != NOBODY and mid and n >= ratio * mid and n > mid}
    return found


def workload_for(*, scope: ReportScope, today: date) -> Workload:
    """Open and overdue tasks per assignee in the scope, as of the server's date."""
    per_project: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    opened: Counter[int] = Counter()
    done = 0
    for project_id, who, status, n in (TaskCount.objects.filter(project_id__in=scope.project_ids)
                                       .values("project_id", "assignee_key", "status").annotate(n=Sum("tasks"))
                                       .order_by().values_list("project_id", "assignee_key", "status", "n")):
        if status == DONE:
            done += n
        elif n:
            per_project[project_id][who] += n
            opened[who] += n
    late = Counter({who or NOBODY: n for who, n in (
        Task.objects.filter(project_id__in=scope.project_ids, due_date__lt=today).exclude(status=DONE)
        .values("assignee_id").annotate(n=Count("id")).order_by().values_list("assignee_id", "n"))})
    members = Membership.objects.filter(project_id__in=scope.project_ids).exclude(role=Membership.Role.VIEWER)
    names = dict(get_user_model().objects.filter(Q(pk__in=[w for w in opened if w != NOBODY])
                                                 | Q(pk__in=members.values("user_id")))
                 .values_list("pk", "username"))
    heavy = _overloaded(per_project)
    people = sorted((AssigneeLoad(id=who, name=name, open=opened[who], overdue=late[who], overloaded=who in heavy)
                     for who, name in names.items()), key=lambda p: (-p.open, -p.overdue, p.name or ""))
    if opened[NOBODY]:
        people.append(AssigneeLoad(id=None, name=None, open=opened[NOBODY], overdue=late[NOBODY], overloaded=False))
    return Workload(today=today.isoformat(), open_tasks=sum(opened.values()), done_tasks=done,
                    overdue_tasks=sum(late.values()),
                    people=tuple(people))
