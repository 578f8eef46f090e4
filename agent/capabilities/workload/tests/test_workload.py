"""Workload: the project button and typed questions, one person's load, the chart's bars and their lists."""
from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape as html_unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from agent.llm.offline import rules_read
from agent.registry import BY_NAME
from agent.routing.quick_actions import QuickAction, buttons_of
from pm_assistant.dates import date_shown
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub, page_context, post_request, route_json, statements_constant

pytestmark = pytest.mark.django_db


def _page(project: Project, origin: str = "quick_button") -> dict[str, Any]:
    return {"page": "project_detail", "origin": origin, "routeParams": {"projectId": project.pk},
            "selectedEntity": {"type": "project", "id": project.pk}}


@pytest.fixture
def load(alice: User, carol: User, website: Project, platform: Project, bob: User) -> None:
    """Website: alice 4 open (1 overdue), carol 2 open (2 overdue) and 1 done, 1 unassigned; Data Platform
    (not alice's): bob 3."""
    late = timezone.localdate() - timedelta(days=2)
    for n in range(4):
        task_create(actor=alice, project=website, title=f"a{n}", assignee=alice, due_date=late if n == 0 else None)
    for n in range(2):
        task_create(actor=alice, project=website, title=f"c{n}", assignee=carol, due_date=late)
    task_create(actor=alice, project=website, title="c done", assignee=carol, status="done")
    task_create(actor=alice, project=website, title="nobody's")
    for n in range(3):
        task_create(actor=bob, project=platform, title=f"b{n}", assignee=bob)


def test_the_project_button_counts_per_person_with_each_bars_list(load: None, alice: User, carol: User,
                                                                  website: Project) -> None:
    run = post_request(alice, _page(website), action="workload")

    assert run["status"] == "done" and run["usage"]["llm_calls"] == 0, run
    data = run["data"]["workload"]
    assert [(b["name"], b["open"], b["overdue"]) for b in data["bars"]] == [
        ("alice", 4, 1), ("carol", 2, 2), ("unassigned", 1, 0)]
    assert data["bars"][1]["url"] == \
        f"/tasks/?project={website.pk}&assignee={carol.pk}&status=todo%2Cin_progress%2Cblocked"
    assert data["bars"][2]["url"] is None
    today = timezone.localdate()
    assert run["reply"].startswith(f"Website Redesign: 7 open tasks, 3 overdue (as of {date_shown(today)}).")
    assert "alice has the most: 4 open, 1 overdue. By person: alice 4 (1 overdue) · carol 2 (2 overdue) · " \
           "unassigned 1." in run["reply"]
    assert data["looked_at"].startswith("Looked at the 7 open tasks of Website Redesign")
    assert [m["label"] for m in data["moves"]] == ["alice's open tasks", "This week's report"]
    assert data["moves"][1]["url"] == f"/projects/{website.pk}/reports/weekly/?week=this"
    call_command("audit_run", run["run_id"])


def test_the_bar_list_filters_the_task_list_by_that_person(load: None, alice: User, website: Project) -> None:
    run = post_request(alice, _page(website), action="workload")
    client = Client()
    client.force_login(alice)
    html = client.get(run["data"]["workload"]["bars"][1]["url"]).content.decode()
    # The rows the page lists, by id (a title as short as "a0" may turn up in a CSRF token).
    shown = json.loads(html_unescape(re.search(r'data-visible-entity-ids="([^"]*)"', html).group(1)))  # type: ignore[union-attr]
    carols = Task.objects.filter(title__in=("c0", "c1")).values_list("pk", flat=True)
    assert sorted(shown) == sorted(carols)


@pytest.mark.parametrize(("message", "first"), [
    ("who has the most open tasks?", "Website Redesign: 7 open tasks"),
    ("carol's tasks", "carol has 2 open tasks in Website Redesign, 2 overdue"),
    ("谁的任务最多？", "Website Redesign：7 个未完成的任务"),
])
def test_typed_questions_are_read_offline(load: None, alice: User, website: Project, message: str,
                                          first: str) -> None:
    run = post_request(alice, _page(website, "sidebar"), message=message)
    assert run["route"]["capability"] == "workload" and run["status"] == "done", run
    assert run["reply"].startswith(first)


@pytest.mark.parametrize("name", ["zed", "quinn"])
def test_a_name_that_matches_nobody_is_said(load: None, alice: User, website: Project, name: str) -> None:
    run = post_request(alice, _page(website, "sidebar"), message=f"{name}'s tasks")
    assert run["reply"].startswith(f"No assignee or member of Website Redesign is named “{name}”; here is everyone's")
    assert run["data"]["workload"]["person"] is None


def test_a_possessive_of_no_one_is_named_not_taken_for_a_person(load: None, alice: User, website: Project) -> None:
    run = post_request(alice, _page(website, "sidebar"), message="today's tasks")
    assert run["route"]["capability"] == "clarify" and "today's" in run["reply"], run


def test_with_a_model_a_chinese_question_about_one_person(load: None, alice: User, website: Project,
                                                          openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("workload"))
    run = post_request(alice, _page(website, "sidebar"), message="分配给carol的任务")
    assert run["status"] == "done" and run["usage"]["llm_calls"] == 1, run
    assert run["reply"].startswith("carol 在 Website Redesign 有 2 个未完成的任务，2 个逾期")
    assert run["data"]["workload"]["person"] == "carol"
    assert [b["focus"] for b in run["data"]["workload"]["bars"]] == [False, True, False]


def test_on_home_it_counts_every_project_of_the_user(load: None, alice: User) -> None:
    run = post_request(alice, {"page": "home", "origin": "sidebar"}, message="who has the most open tasks?")
    # bob's tasks are in a project alice is no member of.
    assert [b["name"] for b in run["data"]["workload"]["bars"]] == ["alice", "carol", "unassigned"]


def test_the_sidebar_draws_a_bar_per_person_each_a_link(load: None, alice: User, website: Project) -> None:
    client = Client()
    client.force_login(alice)
    page = json.dumps({"page": "project_detail", "origin": "quick_button", "routeParams": {"projectId": website.pk}})
    html = client.post("/assistant/request/", {"action": "workload", "page_context": page},
                       headers={"HX-Request": "true"}).content.decode()
    assert html.count('class="workload-row" href="/tasks/?project=') == 2
    assert "data-looked-at" in html and Task.objects.count() == 11


SPEC = BY_NAME["workload"]


@pytest.mark.parametrize("button", buttons_of(SPEC.name), ids=lambda button: f"{button.page}-{button.origin}")
def test_its_button_answers_from_the_database_without_a_model(alice: Any, website: Any, button: QuickAction) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    body = post_request(alice, page_context(button.page, task, origin=button.origin), action=button.action)
    assert (body["status"], body["route"]) == ("done", {"capability": SPEC.name, "via": "fast_path"})
    assert body["usage"]["llm_calls"] == 0


@pytest.mark.parametrize("message", [SPEC.example, SPEC.example_zh])
def test_its_examples_are_read_offline(message: str) -> None:
    assert rules_read(message)["capability"] == SPEC.name


def test_the_button_runs_the_same_statements_for_few_tasks_and_many(alice: User, carol: User,
                                                                    website: Project) -> None:
    def press() -> None:
        assert post_request(alice, _page(website), action="workload")["status"] == "done"

    def grow() -> None:
        late = timezone.localdate() - timedelta(days=1)
        Task.objects.bulk_create(Task(project=website, title=f"bulk {n}", assignee=(alice, carol, None)[n % 3],
                                      due_date=late if n % 2 else None) for n in range(60))

    task_create(actor=alice, project=website, title="one", assignee=alice)
    statements_constant(press, grow=grow)
