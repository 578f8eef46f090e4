"""Weekly figures on the seeded week, against values worked out by hand (tests/reports/fixture.py)."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reports.collect import report_read
from reports.figures import LISTS, report_project
from reports.pipeline import FiguresDisagree, report_verify, weekly_report_build
from reports.scope import ReportWindows, scope_for_user
from reports.week import IsoWeek, week_resolve
from tasks.models import Task, TaskActivity

from .fixture import (
    EXPECTED_W47,
    EXPECTED_W47_COUNTS,
    EXPECTED_W48,
    EXPECTED_W48_ASSIGNEES,
    EXPECTED_W48_COUNTS,
    NOW,
    Seeded,
    local,
)

W48 = IsoWeek(2026, 48)


def _build(user: User, project_id: int | None, week: IsoWeek = W48):  # type: ignore[no-untyped-def]
    scope = scope_for_user(user=user, project_id=project_id)
    return weekly_report_build(scope=scope, windows=ReportWindows.for_week(week, now=NOW))


@pytest.mark.django_db
def test_week_figures_match_the_hand_computed_values(seeded: Seeded, alice: User) -> None:
    report = _build(alice, seeded.website.pk)

    for name in LISTS:
        assert sorted(getattr(report.current, name)) == seeded.ids(*EXPECTED_W48[name]), name
        assert sorted(getattr(report.previous, name)) == seeded.ids(*EXPECTED_W47[name]), f"previous {name}"
    assert (report.current.deleted, report.current.open) == tuple(EXPECTED_W48_COUNTS.values())
    assert (report.previous.deleted, report.previous.open) == tuple(EXPECTED_W47_COUNTS.values())
    assert {a.assignee: (a.completed, a.open, a.overdue) for a in report.current.per_assignee} == \
        EXPECTED_W48_ASSIGNEES
    assert (report.current.monday, report.current.sunday) == ("2026-11-23", "2026-11-29")


@pytest.mark.django_db
def test_all_my_projects_adds_my_other_projects_but_never_one_i_cannot_see(seeded: Seeded, alice: User) -> None:
    report = _build(alice, None)

    assert sorted(report.current.created) == seeded.ids("slipped", "mobile_task")
    assert report.scope_label == "All my projects"


@pytest.mark.django_db
def test_the_default_week_is_the_last_full_week_in_the_site_zone(shanghai: None) -> None:
    # Monday 00:30 in Shanghai is still Sunday in UTC: the last full week is the one that just ended.
    assert week_resolve(None, now=local(11, 30, 0, 30)) == W48
    assert week_resolve("this", now=local(11, 30, 0, 30)) == IsoWeek(2026, 49)
    assert week_resolve("2026-W47", now=NOW) == IsoWeek(2026, 47)


@pytest.mark.django_db
def test_collecting_costs_the_same_queries_whatever_the_size(seeded: Seeded, alice: User) -> None:
    with CaptureQueriesContext(connection) as small:
        _build(alice, seeded.website.pk)
    Task.objects.bulk_create(Task(project=seeded.website, title=f"bulk {n}", status="blocked") for n in range(300))
    with CaptureQueriesContext(connection) as large:
        _build(alice, seeded.website.pk)
    with CaptureQueriesContext(connection) as all_projects:
        _build(alice, None)

    assert len(small) == len(large) == len(all_projects)


@pytest.mark.django_db
def test_a_history_row_the_projection_never_saw_stops_the_report(seeded: Seeded, alice: User) -> None:
    scope = scope_for_user(user=alice, project_id=seeded.website.pk)
    windows = ReportWindows.for_week(W48, now=NOW)
    report = weekly_report_build(scope=scope, windows=windows)
    # Written after the projection, inside the week: the database's count now has one more reopen.
    TaskActivity.objects.create(project=seeded.website, task=seeded.tasks["login"], task_title="login",
                                kind="status", field="status", from_value="done", to_value="in_progress",
                                created_at=local(11, 29, 12))

    with pytest.raises(FiguresDisagree, match="reopened 1 vs 2"):
        report_verify(report, scope=scope, windows=windows)


@pytest.mark.django_db
def test_the_recount_read_with_the_rows_stops_a_projection_that_lost_one(seeded: Seeded, alice: User) -> None:
    scope = scope_for_user(user=alice, project_id=seeded.website.pk)
    windows = ReportWindows.for_week(W48, now=NOW)
    read = report_read(scope=scope, windows=windows)
    reopen = next(e for e in read.events if e["kind"] == "status" and e["from_value"] == "done"
                  and e["task_id"] == seeded.tasks["reopened"].pk and e["created_at"] >= "2026-11-24")
    # The same rows without the reopen: the projection counts none; the recount made with the rows still one.
    report = report_project(scope_label=scope.label, project_id=scope.project_id, tasks=read.tasks,
                            events=[e for e in read.events if e is not reopen], counted=read.counted,
                            current=windows.current, previous=windows.previous, now=NOW)

    with pytest.raises(FiguresDisagree, match="reopened 0 vs 1"):
        report_verify(report, scope=scope, windows=windows, recount=read.recount)


@pytest.mark.django_db
def test_a_user_without_projects_gets_an_empty_verified_report_in_the_same_statements(seeded: Seeded) -> None:
    nobody = User.objects.create_user("nobody")
    with CaptureQueriesContext(connection) as queries:
        report = _build(nobody, None)

    assert report.current.counts() == dict.fromkeys(report.current.counts(), 0)
    assert len(queries) == 2  # the user's projects (none), then the one read
