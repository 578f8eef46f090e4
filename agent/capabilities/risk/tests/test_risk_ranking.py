"""The ranking scored in the database against each task scored in Python from facts read one task at a time.

The reference below is how risk was read and ranked before it moved into one statement: the ORM with
a correlated subquery per fact and per task, every open task scored in Python, sorted by score, due
date (none last) and id. On seeded random data (two projects, subtasks, slips, history near midnight
in a non-UTC zone, ties) the statement must give the same scores, order and totals, page by page; and
what next's statement (reports.next_up_facts) the same facts, scores and order for each assignee's open
tasks as reports.next_up ranks the reference's.
"""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from datetime import date, datetime, timedelta
from statistics import median
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Count, F, IntegerField, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from pm_assistant.vocabulary import STATUSES
from projects.models import Membership, Project
from reports.next_up import NEXT_UP_WEIGHTS, next_up_rank
from reports.next_up_facts import next_up_page
from reports.risk.assess import risk_assess, risk_ranking
from reports.risk.facts import RiskFacts
from reports.risk.score import policy_now, task_points
from reports.scope import ReportScope, scope_for_user
from tasks.models import Task, TaskActivity
from tests.reports.fixture import local

pytestmark = pytest.mark.django_db
TODAY = date(2026, 12, 2)
DONE = Task.Status.DONE


def _count(qs: Any) -> Subquery:
    return Subquery(qs.order_by().values("task_ref").annotate(n=Count("*")).values("n")[:1],
                    output_field=IntegerField())


def reference_facts(scope: ReportScope) -> list[RiskFacts]:
    """Every open task's facts, one correlated subquery per fact and task (the reader before the statement)."""
    open_subtasks = Task.objects.filter(parent_id=OuterRef("pk")).exclude(status=DONE).annotate(
        task_ref=F("parent_id"))
    slips = TaskActivity.objects.filter(task_id=OuterRef("pk"), kind=TaskActivity.Kind.UPDATED, field="due_date") \
        .exclude(from_value="").exclude(to_value="").filter(to_value__gt=F("from_value")).annotate(task_ref=F("task_id"))
    last_activity = TaskActivity.objects.filter(task_id=OuterRef("pk")).order_by().values("task_id") \
        .annotate(last=Max("created_at")).values("last")[:1]
    rows = (Task.objects.filter(project_id__in=scope.project_ids).exclude(status=DONE)
            .annotate(open_subtasks=Coalesce(_count(open_subtasks), 0), due_slips=Coalesce(_count(slips), 0),
                      last_activity=Subquery(last_activity))
            .values_list("id", "project_id", "project__key", "title", "status", "due_date", "assignee_id",
                         "assignee__username", "parent__status", "parent__due_date", "open_subtasks", "due_slips",
                         "last_activity", "created_at"))
    loads = (Task.objects.filter(project_id__in=scope.project_ids, assignee__isnull=False)
             .filter(~Q(status=DONE)).values("project_id", "assignee_id").annotate(open=Count("id")).order_by())
    load: dict[tuple[int, int | None], int] = {}
    per_project: dict[int, list[int]] = defaultdict(list)
    for row in loads:
        load[(row["project_id"], row["assignee_id"])] = row["open"]
        per_project[row["project_id"]].append(row["open"])
    medians = {project: median(counts) for project, counts in per_project.items()}
    return [RiskFacts(pk, project_id, f"{key}-{pk}", title, status, due, assignee_id, assignee, parent_status,
                      parent_due, subtasks, slipped, last or created, load.get((project_id, assignee_id), 0),
                      medians.get(project_id, 0))
            for (pk, project_id, key, title, status, due, assignee_id, assignee, parent_status, parent_due,
                 subtasks, slipped, last, created) in rows]


def reference_ranking(scope: ReportScope) -> tuple[list[tuple[int, int]], int, dict[str, int]]:
    """(id, score) of every task with a score above 0 in rank order, the open tasks, and the levels."""
    policy = policy_now()
    facts = reference_facts(scope)
    scored = [(task_points(f, today=TODAY, policy=policy), f) for f in facts]
    ranked = sorted(((s, f) for s, f in scored if s > 0), key=lambda p: (-p[0], p[1].due_date or date.max, p[1].id))
    levels = Counter(policy.level_of(s) for s, _ in ranked)
    return [(f.id, s) for s, f in ranked], len(facts), {k: levels.get(k, 0) for k in ("high", "medium", "low")}


@pytest.fixture
def random_board(settings: Any, alice: User, carol: User, dave: User, website: Project,
                 mobile: Project) -> None:
    """Two projects of random open and done tasks, subtasks, assignees and history."""
    settings.TIME_ZONE = "Asia/Shanghai"
    rng = random.Random(43)  # repeatable data, not secrets
    people = [alice, carol, dave, None]
    for project in (website, mobile):
        Membership.objects.get_or_create(user=carol, project=project, defaults={"role": Membership.Role.MEMBER})
        made: list[Task] = []
        for i in range(150):
            parent = rng.choice(made) if made and rng.random() < 0.3 else None
            due = TODAY + timedelta(days=rng.randint(-15, 12)) if rng.random() < 0.8 else None
            task = Task.objects.create(project=project, title=f"{project.key} {i}", parent=parent, due_date=due,
                                       status=rng.choice([*STATUSES, STATUSES[0]]),
                                       assignee=rng.choice(people[:3] if project == website else people))
            made.append(task)
        for task in made:
            # Created some days ago, around midnight in either zone for some.
            created = local(11, rng.randint(1, 30), rng.choice([0, 7, 8, 9, 23]), rng.randint(0, 59))
            Task.objects.filter(pk=task.pk).update(created_at=created)
            for _ in range(rng.choice([0, 0, 1, 2, 3])):
                old = TODAY + timedelta(days=rng.randint(-20, 20))
                new = old + timedelta(days=rng.randint(-5, 9))
                kind, field = rng.choice([("updated", "due_date"), ("status", "status"), ("updated", "priority")])
                at = local(rng.choice([11, 12]), rng.randint(1, 2) if rng.random() < 0.5 else rng.randint(1, 28),
                           rng.choice([0, 7, 8, 12, 23]), rng.randint(0, 59))
                TaskActivity.objects.create(
                    project=project, task=task, task_title=task.title, kind=kind, field=field,
                    from_value=rng.choice([old.isoformat(), old.isoformat(), ""]),
                    to_value=rng.choice([new.isoformat(), new.isoformat(), ""]),
                    created_at=min(at, datetime(2026, 12, 2, 9, 0, tzinfo=at.tzinfo)))


@pytest.mark.parametrize("one_project", [True, False])
def test_the_statement_ranks_as_the_reference_scores_each_task(random_board: None, alice: User, website: Project,
                                                              one_project: bool) -> None:
    scope = scope_for_user(user=alice, project_id=website.pk if one_project else None)
    expected, open_tasks, levels = reference_ranking(scope)
    assert len(expected) > 60 and len({s for _, s in expected}) > 5  # the data exercises the ranking

    page = risk_ranking(scope=scope, today=TODAY, limit=1000)
    assert [(f.id, s) for f, s in page.rows] == expected
    assert (page.open_tasks, page.levels, page.next) == (open_tasks, levels, None)


def test_pages_after_a_cursor_continue_the_ranking_without_gap_or_repeat(random_board: None, alice: User) -> None:
    scope = scope_for_user(user=alice, project_id=None)
    expected, open_tasks, _ = reference_ranking(scope)
    seen: list[tuple[int, int]] = []
    page = risk_ranking(scope=scope, today=TODAY, limit=7)
    while True:
        assert page.open_tasks == open_tasks and len(page.rows) <= 7
        seen += [(f.id, s) for f, s in page.rows]
        if page.next is None:
            break
        page = risk_ranking(scope=scope, today=TODAY, limit=7, after=page.next)
    assert seen == expected


def test_the_report_explains_the_top_tasks_with_their_factors(random_board: None, alice: User,
                                                             website: Project) -> None:
    scope = scope_for_user(user=alice, project_id=website.pk)
    expected, open_tasks, levels = reference_ranking(scope)
    report = risk_assess(scope=scope, today=TODAY)

    assert [(t.id, t.score) for t in report.tasks] == expected[:10]
    assert all(sum(f.points for f in t.factors) == t.score for t in report.tasks if t.score < 100)
    assert (report.open_tasks, report.levels()) == (open_tasks, levels)


@pytest.mark.parametrize("one_project", [True, False])
def test_what_nexts_statement_ranks_each_assignees_tasks_as_the_reference(
        random_board: None, alice: User, carol: User, dave: User, website: Project, one_project: bool) -> None:
    scope = scope_for_user(user=alice, project_id=website.pk if one_project else None)
    priorities = dict(Task.objects.values_list("id", "priority"))
    reference = reference_facts(scope)
    assert sum(f.open_subtasks > 0 for f in reference) > 5 and sum(f.due_slips > 0 for f in reference) > 5

    for person in (alice, carol, dave):
        mine = [f._replace(priority=priorities[f.id]) for f in reference if f.assignee_id == person.pk]
        expected = next_up_rank(mine, today=TODAY, top=1000)
        page = next_up_page(scope=scope, assignee_id=person.pk, today=TODAY, weights=NEXT_UP_WEIGHTS, limit=1000)
        assert [(f.id, score) for f, score in page.rows] == [(t.id, t.score) for t in expected.tasks]
        assert [f for f, _ in page.rows] == [next(f for f in mine if f.id == t.id) for t in expected.tasks]
        assert page.open_tasks == len(mine)
    assert len({t.score for t in expected.tasks}) > 5  # the data exercises the ranking
