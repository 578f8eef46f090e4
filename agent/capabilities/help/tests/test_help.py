"""Help and clarify answer with what works on the page: its quick actions as buttons, and examples."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agent.llm.offline import rules_read
from agent.registry import HELP_EXAMPLES
from agent.routing.quick_actions import quick_actions_for
from agent.words.language import language_of
from pm_assistant.vocabulary import PAGES
from projects.services import project_create
from tasks.models import Task
from tasks.services import task_create


def _context(page: str, task: Task) -> dict[str, Any]:
    route = {"project_detail": {"projectId": task.project_id}, "task_detail": {"taskId": task.pk}}.get(page, {})
    return {"page": page, "origin": "sidebar", "routeParams": route}


def _ask(user: Any, message: str, context: dict[str, Any]) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/assistant/requests/", {"message": message, "page_context": context}, format="json")
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("message", ["what can you do?", "help", "hello"])
def test_help_lists_the_pages_quick_actions_as_buttons(alice: Any, website: Any, page: str, message: str) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page")
    body = _ask(alice, message, _context(page, task))
    assert body["status"] == "done"
    assert body["route"]["capability"] == "help"
    offered = quick_actions_for(page)  # type: ignore[arg-type]
    assert [s["action"] for s in body["data"]["suggestions"]] == [entry.action for entry in offered]
    for entry in offered:
        assert f"“{entry.label}”" in body["reply"]
    for spec in HELP_EXAMPLES:
        assert spec.example_for(chinese=False, project=website.name) in body["reply"]
    assert Task.objects.count() == 1


def test_help_in_chinese_answers_in_chinese(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page")
    body = _ask(alice, "你能做什么？", _context("task_detail", task))
    assert body["route"]["capability"] == "help"
    labels = "、".join(f"“{entry.label}”" for entry in quick_actions_for("task_detail"))
    assert f"本页的快捷操作：{labels}。" in body["reply"]
    for spec in HELP_EXAMPLES:
        assert f"- {spec.label_zh}：“{spec.example_for(chinese=True, project=website.name)}”" in body["reply"]
        assert spec.example_for(chinese=False, project=website.name) not in body["reply"]
        # The buttons keep their labels; the examples are in Chinese only.
        assert f"- {spec.label}:" not in body["reply"]


@pytest.mark.parametrize("spec", HELP_EXAMPLES, ids=lambda spec: spec.name)
def test_each_help_example_asks_for_its_own_capability_in_both_languages(spec: Any) -> None:
    """What help offers to type is understood as that capability, in English and in Chinese."""
    english, chinese = (spec.example_for(chinese=zh, project="Website Redesign") for zh in (False, True))
    assert english is not None and chinese is not None
    assert language_of(english) == "en" and language_of(chinese) == "zh"
    assert rules_read(english)["capability"] == spec.name
    assert rules_read(chinese)["capability"] == spec.name


@pytest.mark.parametrize("message", ["what is the weather", "help", "今天天气怎么样"])
def test_help_examples_name_only_the_users_own_projects(alice: Any, website: Any, message: str) -> None:
    """Examples name a project of the user's own (the first by name off a project page), or none at all."""
    other = project_create(owner=alice, key="ZZZ", name="Zebra Zone")
    stranger = User.objects.create_user("stranger", password="x")
    context = {"page": "home", "origin": "sidebar"}
    named = [spec for spec in HELP_EXAMPLES if "{project}" in spec.example]
    assert named, "an example names a project"
    mine = _ask(alice, message, context)["reply"]
    assert website.name in mine and other.name not in mine
    theirs = _ask(stranger, message, context)["reply"]
    assert website.name not in theirs and "{project}" not in theirs
    for spec in named:
        assert spec.label not in theirs and spec.label_zh not in theirs
    on_page = _ask(alice, message, {"page": "project_detail", "origin": "sidebar",
                                    "routeParams": {"projectId": other.pk}})["reply"]
    assert other.name in on_page and website.name not in on_page


# The offline reader names what it could not read; a model's clarify gives its own reason.
@pytest.mark.parametrize(("message", "opening"), [("what is the weather", "I couldn't read 'weather'"),
                                                  ("今天天气怎么样", "我没能读懂“今天天气”")])
def test_an_unclear_message_says_what_works_here(alice: Any, website: Any, message: str, opening: str) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page")
    body = _ask(alice, message, _context("home", task))
    assert body["status"] == "needs_clarification"
    assert opening in body["reply"]
    assert [s["action"] for s in body["data"]["suggestions"]] == [e.action for e in quick_actions_for("home")]
    assert "“My overdue tasks”" in body["reply"]
