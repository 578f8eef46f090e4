"""A priority in letters or in words narrows a query; "my P0 tasks" are my open ones unless a status is said."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.data_layer.helpers import post_request
from tests.helpers import LLMStub, route_json

pytestmark = pytest.mark.django_db
HOME = {"page": "home", "origin": "sidebar"}


@pytest.fixture
def tasks(alice: User, carol: User, website: Project) -> dict[str, Task]:
    return {
        "open_p0": task_create(actor=alice, project=website, title="Open P0", priority="P0", assignee=alice),
        "done_p0": task_create(actor=alice, project=website, title="Done P0", priority="P0", assignee=alice,
                               status="done"),
        "open_p1": task_create(actor=alice, project=website, title="Open P1", priority="P1", assignee=alice),
        "carols_p0": task_create(actor=alice, project=website, title="Carol's P0", priority="P0", assignee=carol),
    }


def _ids(run: dict[str, Any]) -> set[int]:
    return {row["id"] for row in run["data"]["items"]}


@pytest.mark.parametrize("message", ["my P0 tasks", "show my top priority tasks", "我的最高优先级任务"])
def test_my_p0_tasks_are_the_open_ones_and_the_answer_says_so(alice: User, tasks: dict[str, Task],
                                                               message: str) -> None:
    run = post_request(alice, HOME, message=message)
    assert run["route"]["capability"] == "query", run
    assert _ids(run) == {tasks["open_p0"].pk}
    # Whose, too: mine ("assigned to you"), as a person's name is said.
    assert "(P0; open; assigned to you)" in run["reply"] or "（P0；未完成；分配给你）" in run["reply"], run["reply"]
    assert "status=" in run["data"]["list_url"]  # the task list shows the same tasks


def test_a_status_said_is_the_status_listed(alice: User, tasks: dict[str, Task]) -> None:
    run = post_request(alice, HOME, message="my done P0 tasks")
    assert _ids(run) == {tasks["done_p0"].pk}
    assert "open" not in run["reply"] and "(P0; done; assigned to you)" in run["reply"], run["reply"]


def test_a_priority_in_words_narrows_everyones_tasks(alice: User, tasks: dict[str, Task]) -> None:
    run = post_request(alice, HOME, message="high priority tasks")
    assert _ids(run) == {tasks["open_p1"].pk}
    # Not mine: every status, as asked.
    assert _ids(post_request(alice, HOME, message="P0 tasks")) == {t.pk for k, t in tasks.items() if "p0" in k}


def test_a_model_routed_my_p0_query_is_open_too(alice: User, tasks: dict[str, Task],
                                                 openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("query", assignee_me=True, priority_filter=["P0"])).push_text("Here.")
    run = post_request(alice, HOME, message="what P0 work is on my plate")
    assert _ids(run) == {tasks["open_p0"].pk}


@pytest.mark.parametrize(("message", "said"), [("show overdue P0 tasks", "(P0)"), ("逾期的P0任务", "（P0）"),
                                               ("overdue blocked tasks", "(blocked)")])
def test_overdue_keeps_the_other_filters_asked_for_and_says_them(alice: User, carol: User, website: Project,
                                                                 message: str, said: str) -> None:
    past = timezone.localdate() - timedelta(days=3)
    late_p0 = task_create(actor=alice, project=website, title="Late P0", priority="P0", due_date=past)
    late_blocked = task_create(actor=alice, project=website, title="Late P1", priority="P1", status="blocked",
                               due_date=past)
    run = post_request(alice, HOME, message=message)
    assert run["route"]["capability"] == "query", run
    assert _ids(run) == {(late_blocked if "blocked" in message else late_p0).pk}, run
    assert said in run["reply"], run["reply"]


def test_a_routers_done_status_with_overdue_is_not_said_as_used(alice: User, website: Project,
                                                               openai_settings: LLMStub) -> None:
    """Overdue lists open tasks; the answer never claims a done status it did not apply."""
    task_create(actor=alice, project=website, title="Late P0", priority="P0",
                due_date=timezone.localdate() - timedelta(days=3))
    # An explanation with a number the query did not return gives way to the template, which is checked here.
    openai_settings.push_json(route_json("query", preset="overdue", status_filter=["done"])).push_text(
        "There are 7 of them.")
    run = post_request(alice, HOME, message="overdue done tasks")
    assert run["route"]["capability"] == "query", run
    assert "1 overdue task:" in run["reply"] and "(done)" not in run["reply"], run["reply"]
