"""Project summary: the project button and typed questions, figures from the pipelines, checked, and the polish."""
from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import F
from django.test import Client

from agent.llm.offline import rules_read
from agent.models import Alert
from agent.registry import BY_NAME
from agent.routing.quick_actions import QuickAction, buttons_of
from projects.models import Project
from tasks.models import Task, TaskCount
from tasks.services import task_create, task_update
from tests.helpers import (
    NOW,
    LLMStub,
    clock_at,
    local,
    page_context,
    post_request,
    route_json,
    statements_constant,
    trace_of,
)

pytestmark = pytest.mark.django_db


def _page(project: Project, origin: str = "quick_button") -> dict[str, Any]:
    return {"page": "project_detail", "origin": origin, "routeParams": {"projectId": project.pk},
            "selectedEntity": {"type": "project", "id": project.pk}}


def test_the_project_button_sums_up_from_the_pipelines(team: dict[str, Task], alice: User, website: Project,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(website), action="project_summary")

    assert run["status"] == "done" and run["usage"]["llm_calls"] == 0, run
    late = team["late0"]
    assert run["reply"].startswith(
        "Website Redesign, this week so far (2026-W49, from Nov 30, 2026): 9 open tasks and 3 done; 3 overdue and "
        "0 blocked now. Finished this week: 2 (")
    assert f"Due dates slipped this week: 1 (WEB-{team['slipper'].pk} “slipper”)." in run["reply"]
    assert f"Top risks: WEB-{late.pk} “late 0” (35: 4 days overdue, no activity for 12 days);" in run["reply"]
    assert run["reply"].endswith("Nobody is overloaded.")
    data = run["data"]["summary"]
    assert [f["n"] for f in data["figures"]] == [9, 3, 2, 1]
    assert data["top"][0]["id"] == late.pk
    assert data["looked_at"].startswith("Looked at Website Redesign: this week's report (2026-W49")
    assert data["moves"] == [{"label": "This week's report",
                              "url": f"/projects/{website.pk}/reports/weekly/?week=this"}]
    nodes = [n["name"] for n in trace_of(alice, run["run_id"])["nodes"]]
    assert [n for n in nodes if n.startswith("summary_")] == ["summary_collect", "summary_template", "summary_polish"]
    call_command("audit_run", run["run_id"])


@pytest.mark.parametrize("message", ["summarize this project", "how is the project doing?", "这个项目怎么样"])
def test_typed_questions_are_read_offline(team: dict[str, Task], alice: User, website: Project, message: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(website, "sidebar"), message=message)
    assert run["route"]["capability"] == "project_summary" and run["status"] == "done", run
    if message.startswith("这"):
        assert run["reply"].startswith(
            "Website Redesign，本周截至目前（2026-W49，自 Nov 30, 2026 起）：9 个未完成的任务，3 个已完成")
        assert "逾期 4 天" in run["reply"]


def test_away_from_a_project_this_project_is_asked_about(team: dict[str, Task], alice: User) -> None:
    run = post_request(alice, {"page": "home", "origin": "sidebar"}, message="summarize this project")
    assert run["status"] == "needs_clarification"
    assert run["reply"] == "This page shows no single project. Open the project, or name it in your request."


def test_an_overloaded_person_is_named_with_the_list_behind(
        team: dict[str, Task], alice: User, carol: User, website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, local(12, 1)):
        task_create(actor=alice, project=website, title="carol's new", assignee=carol)
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(website), action="project_summary")
    assert run["reply"].endswith("Overloaded: alice (6 open, 2 overdue).")
    assert run["data"]["summary"]["moves"][1] == {
        "label": "alice's open tasks",
        "url": f"/tasks/?project={website.pk}&assignee={alice.pk}&status=todo%2Cin_progress%2Cblocked"}


def test_counts_that_disagree_make_no_summary_and_raise_an_alert(
        team: dict[str, Task], alice: User, website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    TaskCount.objects.filter(project=website, status="todo", assignee_key=0).update(tasks=F("tasks") + 1)
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(website), action="project_summary")
    assert run["status"] == "error" and "open (counters) 9 vs 10" in run["reply"]
    assert Alert.objects.get(run_id=run["run_id"]).kind == Alert.Kind.FIGURES_MISMATCH


def test_a_model_writes_the_prose_and_is_held_to_the_figures(team: dict[str, Task], alice: User, website: Project,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("project_summary", scope="project"))
    text = "Website Redesign has 9 open and 3 done tasks; 2 finished this week, 1 slipped, and the top risk scores 35."
    openai_settings.push_text(text)
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(website, "sidebar"), message="give me the big picture here")
    assert (run["reply"], run["data"]["polished"]) == (text, True)
    call_command("audit_run", run["run_id"])

    openai_settings.push_json(route_json("project_summary", scope="project"))
    openai_settings.push_text("Website Redesign has 14 open tasks.")
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(website, "sidebar"), message="give me the big picture here")
    assert run["data"]["polished"] is False and run["reply"].startswith("Website Redesign, this week so far")


def test_the_sidebar_card_links_the_risks(team: dict[str, Task], alice: User, website: Project,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    client.force_login(alice)
    page = json.dumps({"page": "project_detail", "origin": "quick_button", "routeParams": {"projectId": website.pk}})
    with clock_at(monkeypatch, NOW):
        html = client.post("/assistant/request/", {"action": "project_summary", "page_context": page},
                           headers={"HX-Request": "true"}).content.decode()
    assert f'href="/tasks/{team["late0"].pk}/"' in html and "data-looked-at" in html


SPEC = BY_NAME["project_summary"]


@pytest.mark.parametrize("button", buttons_of(SPEC.name), ids=lambda button: f"{button.page}-{button.origin}")
def test_its_button_answers_from_the_database_without_a_model(alice: Any, website: Any, button: QuickAction) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    body = post_request(alice, page_context(button.page, task, origin=button.origin), action=button.action)
    assert (body["status"], body["route"]) == ("done", {"capability": SPEC.name, "via": "fast_path"})
    assert body["usage"]["llm_calls"] == 0


@pytest.mark.parametrize("message", [SPEC.example, SPEC.example_zh])
def test_its_examples_are_read_offline(message: str) -> None:
    assert rules_read(message)["capability"] == SPEC.name


def test_the_button_runs_the_same_statements_for_few_tasks_and_many(
        team: dict[str, Task], alice: User, carol: User, website: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    def press() -> None:
        with clock_at(monkeypatch, NOW):
            assert post_request(alice, _page(website), action="project_summary")["status"] == "done"

    def grow() -> None:
        with clock_at(monkeypatch, local(12, 1)):
            for n in range(30):
                task = task_create(actor=alice, project=website, title=f"more {n}",
                                   assignee=(alice, carol, None)[n % 3], due_date=date(2026, 11, 20 + n % 10))
                if n % 3 == 0:
                    task_update(actor=alice, task=task, status="done" if n % 2 else "blocked")

    statements_constant(press, grow=grow)
