"""The weekly report and the delay risk make the same statements at 200, 20 000 and 100 000 tasks."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from pm_assistant.vocabulary import STATUSES
from projects.models import Membership, Project
from reports.collect import report_read
from reports.figures import LIST_LINES, LISTS
from reports.pipeline import weekly_report_build
from reports.risk.assess import risk_assess
from reports.scope import ReportScope, ReportWindows, scope_for_user
from reports.week import IsoWeek
from tasks.models import Task, TaskActivity

pytestmark = pytest.mark.django_db
SIZES = (200, 20_000, 100_000)
# One read: the history, the tasks with history and the first lines of each list, the others' counts,
# and both weeks' recount (their counts in one pass over the tasks, their deletions and slips over the history).
REPORT_STATEMENTS = 1
# The open tasks scored and ranked, with their totals, in one statement.
RISK_STATEMENTS = 1


def _tasks_insert(project: Project, owner: User, size: int) -> None:
    """Task n of `size`: status n mod 5, assigned unless n is a multiple of 3, due n mod 41 - 20 days from today.

    One INSERT … SELECT over a counted series (the count triggers fire as for any insert): building 120 000
    model objects for bulk_create took 30 of this file's 37 seconds.
    """
    ops = connection.ops
    due = ("CAST(%s AS date) + (n %% 41 - 20)" if connection.vendor == "postgresql"
           else "date(%s, (n %% 41 - 20) || ' days')")
    status = "CASE n %% {} {} END".format(len(STATUSES), " ".join(f"WHEN {i} THEN %s" for i in range(len(STATUSES))))
    now = ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        # Interpolated: the model's table name and the two fragments above; every value is a parameter.
        cursor.execute(
            f"""WITH RECURSIVE series(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM series WHERE n + 1 < %s)
            INSERT INTO {Task._meta.db_table} (project_id, title, description, status, priority, assignee_id,
                due_date, progress, created_by_id, created_at, updated_at)
            SELECT %s, 'task ' || n, '', {status}, %s, CASE WHEN n %% 3 = 0 THEN NULL ELSE %s END,
                {due}, 0, %s, %s, %s FROM series""",  # noqa: S608
            [size, project.pk, *STATUSES, Task._meta.get_field("priority").get_default(), owner.pk,
             ops.adapt_datefield_value(timezone.localdate()), owner.pk, now, now])


def _project(owner: User, size: int) -> ReportScope:
    """A project of `size` tasks (evenly over the statuses, some subtasks) with history in both reported weeks."""
    project = Project.objects.create(owner=owner, name=f"Size {size}", key=f"S{size}")
    Membership.objects.create(user=owner, project=project, role=Membership.Role.OWNER)
    _tasks_insert(project, owner, size)
    ids = list(Task.objects.filter(project=project).order_by("id").values_list("id", flat=True))
    Task.objects.filter(pk__in=ids[1:40]).update(parent_id=ids[0])
    now = timezone.now()
    TaskActivity.objects.bulk_create(
        (TaskActivity(project=project, task_id=pk, task_title="t", kind="status", field="status",
                      from_value="in_progress", to_value="done", created_at=now - timedelta(days=n % 12, minutes=1))
         for n, pk in enumerate(ids[3::20])), batch_size=5000)
    return scope_for_user(user=owner, project_id=project.pk)


def test_the_report_and_the_risk_cost_the_same_statements_at_every_size(alice: User) -> None:
    now = timezone.now()
    windows = ReportWindows.for_week(IsoWeek.containing(timezone.localdate()), now=now)
    report_counts, risk_counts, open_tasks, rows_read = [], [], [], []
    for size in SIZES:
        scope = _project(alice, size)
        with CaptureQueriesContext(connection) as report:
            weekly_report_build(scope=scope, windows=windows)
        with CaptureQueriesContext(connection) as risk:
            assessed = risk_assess(scope=scope, today=timezone.localdate())
        report_counts.append(len(report))
        rows_read.append(len(report_read(scope=scope, windows=windows).tasks))
        risk_counts.append(len(risk))
        open_tasks.append(assessed.open_tasks)

    assert report_counts == [REPORT_STATEMENTS] * len(SIZES)
    # Row by row: the tasks with history (one in 20 here) and at most the first lines of each list of both weeks.
    assert all(rows <= len(range(3, size, 20)) + 2 * len(LISTS) * LIST_LINES
               for rows, size in zip(rows_read, SIZES, strict=True)), rows_read
    assert risk_counts == [RISK_STATEMENTS] * len(SIZES)
    # Each size was really read: every task not done is scored.
    assert open_tasks == [size - size // len(STATUSES) for size in SIZES]
