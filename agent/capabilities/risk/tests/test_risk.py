"""Delay risk: scores from server facts against hand-computed values, constant queries, the run and its polish."""
from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from agent.models import Alert
from pm_assistant.dates import date_shown
from projects.models import Project
from reports.risk.assess import risk_assess
from reports.scope import scope_for_user
from tasks.models import Task
from tasks.services import task_create, task_update
from tests.helpers import NOW, LLMStub, clock_at, local, post_request, route_json, statements_constant, trace_of

pytestmark = pytest.mark.django_db
TODAY = date(2026, 12, 2)  # NOW's date in Shanghai


@pytest.fixture
def board(shanghai: None, monkeypatch: pytest.MonkeyPatch, alice: User, carol: User, dave: User,
          website: Project) -> dict[str, Task]:
    """Open tasks whose scores are worked out by hand in test_scores_match_the_hand_computed_values."""
    made: dict[str, Task] = {}

    def create(name: str, when: Any, **kwargs: Any) -> None:
        with clock_at(monkeypatch, when):
            made[name] = task_create(actor=alice, project=website, title=name, **kwargs)

    def update(name: str, when: Any, **kwargs: Any) -> None:
        with clock_at(monkeypatch, when):
            made[name] = task_update(actor=alice, task=made[name], **kwargs)

    create("blocked_late", local(11, 20), assignee=carol, due_date=date(2026, 11, 27))
    update("blocked_late", local(11, 30), status="blocked")
    create("release", local(11, 20), assignee=alice, due_date=date(2026, 12, 4))
    create("release_step", local(12, 1), assignee=alice, parent=made["release"])
    create("release_step_2", local(12, 1), assignee=alice, parent=made["release"], status="in_progress")
    create("under_blocked", local(12, 1), assignee=carol, parent=made["blocked_late"])
    create("slipper", local(11, 20), assignee=alice, due_date=date(2026, 12, 1))
    update("slipper", local(11, 28), due_date=date(2026, 12, 8))
    update("slipper", local(12, 1), due_date=date(2026, 12, 15))
    for n in range(3):
        create(f"carol_{n}", local(12, 1), assignee=carol)
    create("dave_one", local(12, 1), assignee=dave)
    create("finished", local(11, 1), due_date=date(2026, 11, 2), status="done")
    return made


def test_scores_match_the_hand_computed_values(board: dict[str, Task], alice: User, website: Project) -> None:
    report = risk_assess(scope=scope_for_user(user=alice, project_id=website.pk), today=TODAY)

    # Loads: carol 5 open, alice 4, dave 1 → median 4; carol's 5 is not 1.5 × 4, so no load factor.
    scores = {t.title: (t.score, t.level, [f.name for f in t.factors]) for t in report.tasks}
    assert scores == {
        "blocked_late": (55, "high", ["overdue", "blocked"]),             # 5 days × 5 + 30
        "release": (35, "medium", ["due_soon_open_subtasks", "inactive"]),  # 20 + 15 (idle 12 days)
        "under_blocked": (10, "low", ["parent_at_risk"]),
        "slipper": (10, "low", ["due_slips"]),                            # 2 slips × 5
    }
    # Equal scores: the earlier due date first, then tasks without one.
    assert [t.title for t in report.tasks] == ["blocked_late", "release", "slipper", "under_blocked"]
    assert report.open_tasks == 10 and report.levels() == {"high": 1, "medium": 1, "low": 2}
    overdue = report.tasks[0].factors[0]
    assert (overdue.value, overdue.points, overdue.sources) == (5, 25, ("database", "server_clock"))


def test_an_assignee_far_above_the_project_median_adds_load(board: dict[str, Task], alice: User, carol: User,
                                                          website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(3):
        with clock_at(monkeypatch, local(12, 1)):
            task_create(actor=alice, project=website, title=f"more for carol {n}", assignee=carol)
    # carol 8 open, alice 4, dave 1 → median 4; 8 ≥ 1.5 × 4.
    report = risk_assess(scope=scope_for_user(user=alice, project_id=website.pk), today=TODAY)

    load = next(f for f in report.tasks[0].factors if f.name == "assignee_load")
    assert (report.tasks[0].title, report.tasks[0].score, load.value) == ("blocked_late", 65, 8)


def test_scoring_costs_the_same_queries_for_ten_tasks_or_ten_times_more(
        board: dict[str, Task], alice: User, website: Project) -> None:
    scope = scope_for_user(user=alice, project_id=website.pk)

    def grow() -> None:
        Task.objects.bulk_create(Task(project=website, title=f"bulk {n}", status="blocked") for n in range(100))

    assert statements_constant(lambda: risk_assess(scope=scope, today=TODAY), grow=grow) == 1


def _project_page(project: Project) -> dict[str, Any]:
    return {"page": "project_detail", "origin": "quick_button", "routeParams": {"projectId": project.pk},
            "selectedEntity": {"type": "project", "id": project.pk}}


def test_the_quick_button_answers_with_the_top_tasks_and_the_chart_data(
        board: dict[str, Task], alice: User, website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _project_page(website), action="risk_analysis")

    assert run["status"] == "done", run
    risk = run["data"]["risk"]
    assert risk["chart"]["scores"] == [55, 35, 10, 10]
    assert risk["top"][0]["factors"][0] == {"name": "overdue", "points": 25, "value": 5,
                                           "sources": ["database", "server_clock"], "words": "5 days overdue"}
    # Every open task is counted once: the three levels and the ones with no risk add up to 10.
    assert run["reply"].startswith("Website Redesign: of 10 open tasks, 1 is at high risk, 1 at medium risk, "
                                   "2 at low risk and 6 at none ")
    # The day it was checked, as the pages write dates (one format in answers and pages).
    assert f"(checked on {date_shown(TODAY)})" in run["reply"] and TODAY.isoformat() not in run["reply"]
    nodes = [n["name"] for n in trace_of(alice, run["run_id"])["nodes"]]
    assert [n for n in nodes if n.startswith("risk_")] == ["risk_collect", "risk_score", "risk_factors",
                                                           "risk_template", "risk_polish"]
    call_command("audit_run", run["run_id"])


def test_a_risk_polish_with_a_number_not_in_the_figures_falls_back(
        board: dict[str, Task], alice: User, website: Project, monkeypatch: pytest.MonkeyPatch,
        openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("risk"))
    openai_settings.push_text("Seven tasks need attention; the worst scores 60.")
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _project_page(website), message="what could slip in Website Redesign?")

    assert run["data"]["polished"] is False and run["reply"].startswith("Website Redesign: of 10")
    # "Seven" is not one of the figures either: spelled-out numbers are checked too.
    assert Alert.objects.get(run_id=run["run_id"]).details["numbers"] == ["60", "Seven"]


def test_a_risk_polish_that_keeps_the_numbers_is_used(
        board: dict[str, Task], alice: User, website: Project, monkeypatch: pytest.MonkeyPatch,
        openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("risk"))
    text = "Of 10 open tasks, 1 is at high risk: it is 5 days overdue and blocked, scoring 55."
    openai_settings.push_text(text)
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _project_page(website), message="哪些任务有延期风险")

    assert (run["reply"], run["data"]["polished"]) == (text, True)
    call_command("audit_run", run["run_id"])


def test_the_project_page_panel_draws_the_chart_and_its_table(board: dict[str, Task], alice: User,
                                                             website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    client.force_login(alice)
    with clock_at(monkeypatch, NOW):
        html = client.get(f"/projects/{website.pk}/reports/risk/", headers={"HX-Request": "true"}).content.decode()

    assert 'data-risk-chart="risk-project-data"' in html
    assert '<table class="visually-hidden" id="risk-project-table">' in html
    assert html.count('<th scope="row">') == 4


def test_the_panel_opened_on_its_own_goes_to_the_project_page(alice: User, website: Project) -> None:
    client = Client()
    client.force_login(alice)
    response = client.get(f"/projects/{website.pk}/reports/risk/")
    assert response.status_code == 302 and response["Location"] == f"/projects/{website.pk}/#risk-panel"
