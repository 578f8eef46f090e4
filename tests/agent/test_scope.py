"""Scope: a named project, "here" and "this task" answer for exactly that, never wider.

Alice has overdue tasks in two projects (Website Redesign, Mobile App); Bob's Data Platform has
overdue tasks too, which Alice cannot see. Every request goes through the API with the offline router.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tasks.models import Task
from tasks.services import task_create

HOME = {"page": "home", "origin": "sidebar"}


@pytest.fixture
def overdue(alice: Any, bob: Any, website: Any, mobile: Any, platform: Any) -> dict[str, list[Task]]:
    """Two overdue tasks of Alice's in each of her projects, and two of Bob's in his."""
    late = timezone.localdate() - timedelta(days=3)
    made: dict[str, list[Task]] = {}
    for project, owner in ((website, alice), (mobile, alice), (platform, bob)):
        made[project.key] = [task_create(actor=owner, project=project, title=f"{project.key} late {n}",
                                         assignee=owner, due_date=late) for n in range(2)]
    return made


def _ask(user: Any, message: str, context: dict[str, Any]) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/assistant/requests/", {"message": message, "page_context": context}, format="json")
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def _keys(body: dict[str, Any]) -> set[str]:
    return {item["key"].split("-")[0] for item in body["data"]["items"]}


@pytest.mark.parametrize("message", ["what is overdue in Website Redesign?", "overdue tasks in WEB",
                                     "在 Website Redesign 项目里有哪些逾期任务", "what is overdue in website redesign"])
# archcheck: allow ARCH005 the pages that name no project
@pytest.mark.parametrize("page", ["home", "project_list", "task_list"])
def test_a_named_project_answers_for_that_project_only(alice: Any, overdue: Any, message: str, page: str) -> None:
    body = _ask(alice, message, {"page": page, "origin": "sidebar"})
    assert body["status"] == "done"
    assert body["data"]["count"] == 2 and _keys(body) == {"WEB"}


def test_a_named_project_on_another_projects_page_is_the_named_one(alice: Any, overdue: Any, mobile: Any) -> None:
    context = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": mobile.pk}}
    body = _ask(alice, "what is overdue in Website Redesign?", context)
    assert _keys(body) == {"WEB"}


@pytest.mark.parametrize("message", ["what is overdue in Data Platform?", "what is overdue in Nowhere?"])
def test_a_project_the_user_cannot_see_is_a_question_never_a_wider_answer(alice: Any, overdue: Any,
                                                                          message: str) -> None:
    body = _ask(alice, message, HOME)
    assert body["status"] == "needs_clarification"
    assert "None of your projects has that name" in body["reply"]
    assert "items" not in body["data"]


def test_several_matching_projects_are_named_not_guessed(alice: Any, overdue: Any, website: Any) -> None:
    from projects.models import Project
    Project.objects.filter(pk=website.pk).update(name="Mobile Website")
    body = _ask(alice, "what is overdue in mobile?", HOME)
    assert body["status"] == "needs_clarification"
    assert "“Mobile App”" in body["reply"] and "“Mobile Website”" in body["reply"]


def test_the_question_back_about_a_project_is_in_the_language_of_the_request(alice: Any, overdue: Any,
                                                                            website: Any) -> None:
    body = _ask(alice, "Nowhere Land 有哪些逾期任务？", HOME)
    assert body["status"] == "needs_clarification" and "items" not in body["data"]
    assert body["reply"] == "你的项目中没有叫这个名字的。你问的是 “Nowhere Land”；是指哪个项目？"
    from projects.models import Project
    Project.objects.filter(pk=website.pk).update(name="Mobile Website")
    body = _ask(alice, "在 Mobile 里有哪些逾期任务？", HOME)
    assert body["reply"] == "你的多个项目都符合：“Mobile App”、“Mobile Website”。你问的是 “Mobile”；是指哪个项目？"
    body = _ask(alice, "这个项目有哪些逾期任务", HOME)
    assert body["reply"] == "这个页面没有对应单个项目。请打开那个项目，或在请求中写出它的名字。"


@pytest.mark.parametrize("message", ["what is overdue here?", "overdue tasks in this project",
                                     "这个项目有哪些逾期任务"])
def test_here_on_a_project_page_means_that_project(alice: Any, overdue: Any, mobile: Any, message: str) -> None:
    context = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": mobile.pk}}
    body = _ask(alice, message, context)
    assert body["data"]["count"] == 2 and _keys(body) == {"MOB"}


def test_here_on_a_page_without_a_project_asks_which(alice: Any, overdue: Any) -> None:
    body = _ask(alice, "what is overdue here?", HOME)
    assert body["status"] == "needs_clarification"
    assert "no single project" in body["reply"]


def test_my_overdue_without_a_scope_covers_all_my_projects(alice: Any, overdue: Any) -> None:
    body = _ask(alice, "what is overdue?", HOME)
    assert body["data"]["count"] == 4 and _keys(body) == {"WEB", "MOB"}


@pytest.mark.parametrize(("message", "brief", "late"), [
    ("what is this task about?", "{key} “MOB late 1” in Mobile App: to do, P2, due ", "(overdue)"),
    ("这个任务是关于什么的？", "{key} “MOB late 1”（Mobile App）：待办，P2，截止 ", "（已逾期）"),
])
def test_this_task_on_a_task_page_is_that_task(
        alice: Any, overdue: Any, message: str, brief: str, late: str) -> None:
    task = overdue["MOB"][1]
    context = {"page": "task_detail", "origin": "sidebar", "routeParams": {"taskId": task.pk}}
    body = _ask(alice, message, context)
    assert body["status"] == "done"
    assert body["data"]["count"] == 1 and [item["id"] for item in body["data"]["items"]] == [task.pk]
    assert body["reply"].startswith(brief.format(key=task.key))
    assert late in body["reply"]


@pytest.mark.parametrize("typed", ["task {id}", "#{id}", "{key}"])
def test_a_typed_task_anywhere_is_that_task(alice: Any, overdue: Any, typed: str) -> None:
    task = overdue["WEB"][0]
    body = _ask(alice, f"what is {typed.format(id=task.pk, key=task.key)} about?", HOME)
    assert [item["id"] for item in body["data"]["items"]] == [task.pk]


def test_a_typed_task_of_another_users_project_is_not_described(alice: Any, overdue: Any) -> None:
    task = overdue["DATA"][0]
    body = _ask(alice, f"what is {task.key} about?", HOME)
    assert body["status"] == "error" and "items" not in body["data"]


def test_risk_for_a_named_project_scores_that_project_only(alice: Any, overdue: Any, mobile: Any) -> None:
    body = _ask(alice, "what could slip in Mobile App?", HOME)
    risk = body["data"]["risk"]
    assert risk["project_id"] == mobile.pk
    assert {t["key"].split("-")[0] for t in risk["top"]} == {"MOB"}


def test_the_weekly_report_for_a_named_project(alice: Any, overdue: Any, website: Any) -> None:
    body = _ask(alice, "weekly report for Website Redesign", HOME)
    assert body["data"]["report"]["project_id"] == website.pk


def test_a_key_of_another_project_does_not_delete_the_task_with_that_number(alice: Any, overdue: Any) -> None:
    task = overdue["WEB"][0]
    body = _ask(alice, f"delete task MOB-{task.pk}", HOME)
    assert body["status"] == "error" and f"MOB-{task.pk}" in body["reply"]
    assert Task.objects.filter(pk=task.pk).exists()
    body = _ask(alice, f"delete task {task.key}", HOME)
    assert body["status"] == "needs_confirmation"
    assert body["confirmation"]["facts"]["task_id"] == task.pk


def test_my_overdue_on_a_task_page_is_not_narrowed_to_its_project(alice: Any, overdue: Any) -> None:
    task = overdue["WEB"][0]
    context = {"page": "task_detail", "origin": "sidebar",
               "routeParams": {"taskId": task.pk, "projectId": task.project_id}}
    body = _ask(alice, "what is overdue?", context)
    assert body["data"]["count"] == 4
