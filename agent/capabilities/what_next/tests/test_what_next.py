"""What next: the Home button and typed questions in both languages, ranked on the server, with no model call."""
from __future__ import annotations

from datetime import timedelta
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
from tasks.services import task_create, task_update
from tests.helpers import LLMStub, page_context, post_request, route_json, statements_constant, trace_of

pytestmark = pytest.mark.django_db
HOME = {"page": "home", "origin": "workbench"}


@pytest.fixture
def mine(alice: User, carol: User, website: Project, mobile: Project) -> dict[str, Task]:
    today = timezone.localdate()
    return {
        "late": task_create(actor=alice, project=website, title="Ship the login fix", assignee=alice,
                            due_date=today - timedelta(days=2), priority="P1"),
        "today": task_create(actor=alice, project=mobile, title="Review the release", assignee=alice, due_date=today),
        "p0": task_create(actor=alice, project=website, title="Answer the auditor", assignee=alice, priority="P0"),
        "calm": task_create(actor=alice, project=website, title="Tidy the wiki", assignee=alice, priority="P3"),
        # carol's two keep alice's three below 1.5 × the project's median: no load factor in the risk.
        "carols": task_create(actor=alice, project=website, title="Carol's own", assignee=carol, priority="P0"),
        "carols_2": task_create(actor=alice, project=website, title="Carol's other", assignee=carol),
        "done": task_create(actor=alice, project=website, title="Old", assignee=alice, status="done"),
    }


def test_the_home_button_ranks_my_open_tasks_without_a_model(mine: dict[str, Task], alice: User) -> None:
    run = post_request(alice, HOME, action="what_next")

    assert run["status"] == "done", run
    data = run["data"]["what_next"]
    # late: overdue 2 days 44 + P1 20 + risk 10 // 5 = 2 → 66; today: due today 25 + P2 10 → 35; p0: 30.
    assert [(t["key"], t["score"]) for t in data["top"]] == [
        (mine["late"].project.key + f"-{mine['late'].pk}", 66), (f"MOB-{mine['today'].pk}", 35),
        (f"WEB-{mine['p0'].pk}", 30), (f"WEB-{mine['calm'].pk}", 0)]
    assert data["top"][0]["why"] == "2 days overdue · priority P1 · delay risk 10"
    lines = run["reply"].splitlines()
    assert lines[0].startswith("All my projects: your next tasks, of 4 open ones assigned to you")
    assert lines[2] == (f"1. WEB-{mine['late'].pk} “Ship the login fix”: 2 days overdue · priority P1 · delay risk 10 "
                        "(score 66)")
    assert run["usage"]["llm_calls"] == 0
    assert data["looked_at"].startswith("Looked at the 4 open tasks assigned to you in All my projects")
    assert data["moves"][0]["url"] == "/tasks/?assignee=me&status=todo%2Cin_progress%2Cblocked"
    assert data["moves"][1] == {"label": f"Reassign WEB-{mine['late'].pk}",
                                "url": f"/tasks/{mine['late'].pk}/?edit=assignee"}
    assert "what_next_rank" in [n["name"] for n in trace_of(alice, run["run_id"])["nodes"]]
    call_command("audit_run", run["run_id"])


def test_the_sidebar_links_each_ranked_task(mine: dict[str, Task], alice: User) -> None:
    client = Client()
    client.force_login(alice)
    html = client.post("/assistant/request/", {"action": "what_next", "page_context": '{"page": "home", '
                       '"origin": "workbench"}'}, headers={"HX-Request": "true"}).content.decode()
    for task in ("late", "today", "p0", "calm"):
        assert f'href="/tasks/{mine[task].pk}/"' in html
    assert "data-looked-at" in html and "?edit=assignee" in html


@pytest.mark.parametrize("message", ["what should I work on next?", "What should I do next", "我接下来做什么"])
def test_typed_questions_are_read_offline(mine: dict[str, Task], alice: User, message: str) -> None:
    run = post_request(alice, {"page": "home", "origin": "sidebar"}, message=message)
    assert run["route"]["capability"] == "what_next" and run["status"] == "done", run
    if message.startswith("我"):
        assert run["reply"].startswith("我的全部项目：分配给你的 4 个未完成任务中")
        assert "逾期 2 天 · 优先级 P1 · 延期风险 10 分（66 分）" in run["reply"]


def test_with_a_model_the_router_chooses_and_the_ranking_stays_the_servers(
        mine: dict[str, Task], alice: User, openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("what_next"))
    run = post_request(alice, {"page": "home", "origin": "sidebar"}, message="anything urgent for me today?")
    assert run["status"] == "done" and run["usage"]["llm_calls"] == 1, run
    assert run["data"]["what_next"]["top"][0]["score"] == 66


def test_on_a_project_page_the_ranking_stays_in_the_project(mine: dict[str, Task], alice: User,
                                                            mobile: Project) -> None:
    page: dict[str, Any] = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": mobile.pk}}
    run = post_request(alice, page, message="what should I work on next?")
    assert [t["title"] for t in run["data"]["what_next"]["top"]] == ["Review the release"]
    assert run["data"]["what_next"]["moves"][0]["url"].startswith(f"/tasks/?project={mobile.pk}&assignee=me")


def test_nothing_open_says_so(alice: User, website: Project) -> None:
    run = post_request(alice, HOME, action="what_next")
    assert run["reply"].startswith("All my projects: you have no open tasks assigned to you")
    today = timezone.localdate()
    assert f"(checked on {date_shown(today)})" in run["reply"] and today.isoformat() not in run["reply"]
    assert run["data"]["what_next"]["moves"] == [{"label": "All my open tasks",
                                                   "url": "/tasks/?assignee=me&status=todo%2Cin_progress%2Cblocked"}]


SPEC = BY_NAME["what_next"]


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
        assert post_request(alice, HOME, action="what_next")["status"] == "done"

    def grow() -> None:
        today = timezone.localdate()
        Task.objects.bulk_create(Task(project=website, title=f"bulk {n}", assignee=alice if n % 2 else carol,
                                      due_date=today - timedelta(days=n % 9), priority=f"P{n % 4}",
                                      parent=one if n % 5 == 0 else None) for n in range(60))
        task_update(actor=alice, task=one, due_date=today + timedelta(days=3))

    one = task_create(actor=alice, project=website, title="one", assignee=alice)
    statements_constant(press, grow=grow)
