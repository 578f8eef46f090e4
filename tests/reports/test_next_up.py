"""What next: the ranking on fixed facts against scores worked out by hand, and its reads on the database."""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from projects.models import Project
from reports.next_up import NEXT_UP_WEIGHTS, next_up_for, next_up_rank
from reports.risk.facts import RiskFacts
from reports.scope import scope_for_user
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import statements_constant

TODAY = date(2026, 12, 2)
FRESH = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.get_fixed_timezone(0))  # active yesterday: no idle risk


def facts(pk: int, *, due: date | None = None, priority: str = "P2", status: str = "todo",
          parent_status: str | None = None, slips: int = 0) -> RiskFacts:
    return RiskFacts(id=pk, project_id=1, key=f"WEB-{pk}", title=f"task {pk}", status=status, due_date=due,
                     assignee_id=7, assignee="alice", parent_status=parent_status, parent_due_date=None,
                     open_subtasks=0, due_slips=slips, last_activity=FRESH, assignee_open=6,
                     project_median_open=6, priority=priority)


BOARD = [
    facts(1, priority="P3"),                                      # nothing: 0
    facts(2, due=date(2026, 11, 29), priority="P2"),              # overdue 3 days: 40 + 6, P2 10, risk 15 // 5 = 3
    facts(3, due=TODAY, priority="P1"),                           # due today 25, P1 20
    facts(4, due=date(2026, 12, 4), priority="P1"),               # due soon 15, P1 20
    facts(5, priority="P0", parent_status="in_progress"),         # P0 30, holds up its parent 15
    facts(6, priority="P2", status="blocked", slips=2),           # P2 10, risk 30 + 10 = 40 // 5 = 8
    facts(7, due=date(2026, 10, 1), priority="P3"),               # overdue 62 days: capped 60, risk 40 // 5 = 8
    facts(8, due=date(2026, 12, 4), priority="P1"),               # as 4: the tie goes to the lower id
]


def test_the_ranking_matches_the_scores_worked_out_by_hand() -> None:
    ranked = next_up_rank(BOARD, today=TODAY)

    assert ranked.open_tasks == 8
    assert [(t.key, t.score) for t in ranked.tasks] == [
        ("WEB-7", 68), ("WEB-2", 59), ("WEB-3", 45), ("WEB-5", 45), ("WEB-4", 35)]
    assert ranked.tasks[0].points() == {"overdue": 60, "delay_risk": 8}
    assert ranked.tasks[1].points() == {"overdue": 46, "priority": 10, "delay_risk": 3}
    assert ranked.tasks[3].points() == {"priority": 30, "holds_up": 15}
    # Equal scores: WEB-3 (due today) before WEB-5 (no due date); WEB-4 before WEB-8 (same due, same priority).
    assert next_up_rank(BOARD, today=TODAY, top=8).tasks[5].key == "WEB-8"


def test_the_ranking_is_the_same_in_any_order_of_the_facts() -> None:
    once = next_up_rank(BOARD, today=TODAY, top=8)
    assert next_up_rank(list(reversed(BOARD)), today=TODAY, top=8) == once


def test_the_parts_are_the_stated_weights() -> None:
    part = next_up_rank([facts(9, due=date(2026, 12, 1), priority="P0")], today=TODAY).tasks[0]
    w = NEXT_UP_WEIGHTS
    assert part.points() == {"overdue": w["overdue"] + w["overdue_per_day"], "priority": w["P0"], "delay_risk": 1}


@pytest.mark.django_db
def test_only_the_users_open_tasks_in_the_scope_are_ranked_in_one_statement(
        alice: User, carol: User, website: Project, mobile: Project) -> None:
    today = timezone.localdate()
    late = task_create(actor=alice, project=website, title="Late", assignee=alice,
                       due_date=today - timedelta(days=1))
    task_create(actor=alice, project=mobile, title="Mobile P0", assignee=alice, priority="P0")
    task_create(actor=alice, project=website, title="Carol's", assignee=carol, priority="P0")
    task_create(actor=alice, project=website, title="Done", assignee=alice, status="done")
    scope = scope_for_user(user=alice, project_id=None)

    ranked = next_up_for(scope=scope, user_id=alice.pk, today=today)
    assert [t.title for t in ranked.tasks] == ["Late", "Mobile P0"] and ranked.tasks[0].id == late.pk
    assert [t.title for t in next_up_for(scope=scope_for_user(user=alice, project_id=mobile.pk), user_id=alice.pk,
                                         today=today).tasks] == ["Mobile P0"]

    def grow() -> None:
        Task.objects.bulk_create(Task(project=website, title=f"bulk {n}", assignee=alice,
                                      parent=late if n % 4 == 0 else None) for n in range(60))

    assert statements_constant(lambda: next_up_for(scope=scope, user_id=alice.pk, today=today), grow=grow) == 1
    assert next_up_for(scope=scope, user_id=alice.pk, today=today).open_tasks == 62


def test_the_usage_guide_states_the_weights_the_ranking_uses() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "USAGE.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (overdue|due soon|priority|holds up another|delay risk) \| [^|]+ \| ([^|]+) \|$",
                           guide, re.MULTILINE))
    w = NEXT_UP_WEIGHTS
    assert rows == {
        "overdue": f"{w['overdue']}, plus {w['overdue_per_day']} a day past it, at most {w['overdue_max']}",
        "due soon": f"{w['due_today']} / {w['due_soon']}",
        "priority": f"P0 {w['P0']}, P1 {w['P1']}, P2 {w['P2']}, P3 {w['P3']}",
        "holds up another": str(w["holds_up"]),
        "delay risk": f"the score divided by {w['risk_divisor']}, rounded down"}
