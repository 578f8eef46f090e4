"""Workload per assignee and the project summary: figures worked out by hand, the cross-check, constant reads."""
from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db.models import F

from projects.models import Project
from reports.pipeline import FiguresDisagree
from reports.scope import scope_for_user
from reports.summary import project_summary_build
from reports.workload import workload_for
from tasks.models import Task, TaskCount
from tasks.services import task_create
from tests.reports.fixture import NOW, clock_at, local
from tests.statements import statements_constant

pytestmark = pytest.mark.django_db
TODAY = date(2026, 12, 2)  # NOW's date in Shanghai


def test_workload_counts_open_and_overdue_per_assignee(team: dict[str, Task], alice: User, carol: User,
                                                      website: Project) -> None:
    load = workload_for(scope=scope_for_user(user=alice, project_id=website.pk), today=TODAY)

    assert [(p.name, p.open, p.overdue) for p in load.people] == [
        ("alice", 6, 2), ("carol", 0, 0), (None, 3, 1)]
    assert (load.open_tasks, load.done_tasks, load.overdue_tasks) == (9, 3, 3)
    # One assignee in the project: the median is alice's own 6, so nobody is above it.
    assert load.overloaded() == ()


def test_an_assignee_far_above_the_project_median_is_overloaded(
        team: dict[str, Task], alice: User, carol: User, website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, local(12, 1)):
        task_create(actor=alice, project=website, title="carol's one", assignee=carol)
    load = workload_for(scope=scope_for_user(user=alice, project_id=website.pk), today=TODAY)
    # alice 6, carol 1 → median 3.5; 6 ≥ 1.5 × 3.5 and above it.
    assert [(p.name, p.overloaded) for p in load.people][:2] == [("alice", True), ("carol", False)]


def test_workload_reads_three_statements_for_any_number_of_tasks(team: dict[str, Task], alice: User,
                                                                website: Project) -> None:
    scope = scope_for_user(user=alice, project_id=None)

    def grow() -> None:
        Task.objects.bulk_create(Task(project=website, title=f"bulk {n}", assignee=alice,
                                      due_date=date(2026, 11, 1)) for n in range(80))

    assert statements_constant(lambda: workload_for(scope=scope, today=TODAY), grow=grow) == 3
    load = workload_for(scope=scope, today=TODAY)
    assert (load.people[0].name, load.people[0].open, load.people[0].overdue) == ("alice", 87, 82)


def test_the_summary_names_this_weeks_figures_the_risks_and_the_load(
        team: dict[str, Task], alice: User, website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        summary = project_summary_build(scope=scope_for_user(user=alice, project_id=website.pk), now=NOW)

    assert (summary.open, summary.done) == (9, 3)
    completed, lines = summary.finished()
    assert completed == 2 and sorted(t.title for t in lines) == ["carol's", "shipped"]
    slipped, lines = summary.slipped()
    assert slipped == 1 and [t.title for t in lines] == ["slipper"]
    assert summary.report.current.week == "2026-W49" and summary.risk.open_tasks == 9
    assert [t.title for t in summary.risks()][:2] == ["late 0", "late 1"]


def test_counters_that_disagree_with_the_report_make_no_summary(team: dict[str, Task], alice: User,
                                                                website: Project) -> None:
    TaskCount.objects.filter(project=website, status="todo", assignee_key=0).update(tasks=F("tasks") + 1)
    with pytest.raises(FiguresDisagree, match=r"open \(counters\) 9 vs 10"):
        project_summary_build(scope=scope_for_user(user=alice, project_id=website.pk), now=NOW)
