"""A query narrowed to a person, to nobody, or to a due range lists exactly those tasks and says so.

The person is found among the members of the user's projects: a name nobody there has is asked
about by name (someone only in a project the user is not in is nobody), never dropped or guessed.
"""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.data_layer.helpers import post_request
from tests.helpers import LLMStub, route_json

pytestmark = pytest.mark.django_db
HOME = {"page": "home", "origin": "sidebar"}


def _monday() -> date:
    today = timezone.localdate()
    return today - timedelta(days=today.weekday())


@pytest.fixture
def tasks(alice: User, bob: User, carol: User, website: Project, platform: Project) -> dict[str, Task]:
    monday = _monday()
    made = {
        "carol_this_week": task_create(actor=alice, project=website, title="Carol this week", assignee=carol,
                                       due_date=monday + timedelta(days=6)),
        "carol_next_week": task_create(actor=alice, project=website, title="Carol next week", assignee=carol,
                                       due_date=monday + timedelta(days=7)),
        "carol_done": task_create(actor=alice, project=website, title="Carol done", assignee=carol, status="done"),
        "alice_this_week": task_create(actor=alice, project=website, title="Alice this week", assignee=alice,
                                       due_date=monday),
        "nobody": task_create(actor=alice, project=website, title="Nobody's"),
        # carol's task in a project alice is not in: never listed for alice.
        "hidden": task_create(actor=bob, project=platform, title="Hidden", assignee=carol, due_date=monday),
    }
    return made


def _ids(run: dict[str, Any]) -> set[int]:
    return {row["id"] for row in run["data"]["items"]}


@pytest.mark.parametrize("message", ["show tasks assigned to carol", "分配给carol的任务", "carol负责的任务",
                                     "看看carol手上的任务", "carol的任务"])
def test_tasks_assigned_to_a_member_are_hers_only(alice: User, tasks: dict[str, Task], message: str) -> None:
    run = post_request(alice, HOME, message=message)
    assert run["route"]["capability"] == "query" and run["status"] == "done", run
    assert _ids(run) == {tasks[k].pk for k in ("carol_this_week", "carol_next_week", "carol_done")}
    assert "(assigned to carol)" in run["reply"] or "（负责人 carol）" in run["reply"], run["reply"]


def test_a_person_and_a_filter_in_chinese_are_both_read(alice: User, tasks: dict[str, Task]) -> None:
    run = post_request(alice, HOME, message="给我看一下carol负责的未完成任务")
    assert run["route"]["capability"] == "query", run
    assert _ids(run) == {tasks["carol_this_week"].pk, tasks["carol_next_week"].pk}, run


def test_a_persons_open_tasks_are_a_filtered_list(alice: User, tasks: dict[str, Task]) -> None:
    run = post_request(alice, HOME, message="carol's open tasks")
    assert run["route"]["capability"] == "query", run
    assert _ids(run) == {tasks["carol_this_week"].pk, tasks["carol_next_week"].pk}
    # "carol's tasks" stays the workload view, with carol first.
    assert post_request(alice, HOME, message="carol's tasks")["route"]["capability"] == "workload"


@pytest.mark.parametrize("message", ["unassigned tasks", "没人负责的任务"])
def test_unassigned_tasks_are_nobodys(alice: User, tasks: dict[str, Task], message: str) -> None:
    run = post_request(alice, HOME, message=message)
    assert _ids(run) == {tasks["nobody"].pk}, run
    assert "assigned to nobody" in run["reply"] or "无负责人" in run["reply"]
    assert "assignee=none" in run["data"]["list_url"]


@pytest.mark.parametrize("message", ["tasks due this week", "本周到期的任务"])
def test_due_this_week_is_monday_to_sunday(alice: User, tasks: dict[str, Task], message: str) -> None:
    run = post_request(alice, HOME, message=message)
    assert _ids(run) == {tasks["carol_this_week"].pk, tasks["alice_this_week"].pk}, run
    monday = _monday()
    assert f"{monday.isoformat()}" in run["reply"] and (monday + timedelta(days=6)).isoformat() in run["reply"]


def test_due_before_a_day_in_words_is_read_by_dateparser(alice: User, tasks: dict[str, Task]) -> None:
    sunday = _monday() + timedelta(days=6)
    # Next Monday written as a date dateparser reads ("December 14"): strictly before it.
    day = sunday + timedelta(days=1)
    run = post_request(alice, HOME, message=f"carol's tasks due before {day:%B} {day.day}")
    assert run["route"]["capability"] == "query", run
    assert _ids(run) == {tasks["carol_this_week"].pk}
    assert f"due by {sunday.isoformat()}" in run["reply"]


@pytest.mark.parametrize(("message", "said"), [
    ("tasks assigned to zed", "I couldn't find anyone called “zed” among the members of your projects"),
    ("分配给zed的任务", "在你的项目成员中找不到“zed”"),
    # bob is in no project of alice's: the same as nobody, and his tasks are never listed.
    ("show tasks assigned to bob", "I couldn't find anyone called “bob”"),
])
def test_an_unknown_person_is_asked_about_by_name(alice: User, tasks: dict[str, Task], message: str,
                                                  said: str) -> None:
    run = post_request(alice, HOME, message=message)
    assert run["status"] == "needs_clarification" and run["reply"].startswith(said), run
    assert "items" not in run["data"]


def test_a_model_routed_person_filter_is_found_the_same_way(alice: User, tasks: dict[str, Task],
                                                            openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("query", assignee="Carol", due_before="2999-01-01"))
    run = post_request(alice, HOME, message="what does carol have due?")
    assert _ids(run) == {tasks["carol_this_week"].pk, tasks["carol_next_week"].pk}, run


def test_the_list_of_nobodys_tasks_opens_and_the_sidebar_works_on_it(alice: User, tasks: dict[str, Task]) -> None:
    client = Client()
    client.force_login(alice)
    page = client.get("/tasks/?assignee=none")
    assert page.status_code == 200 and "Nobody&#x27;s" in page.content.decode()
    assert "Carol this week" not in page.content.decode()
    run = post_request(alice, {"page": "task_list", "origin": "sidebar", "filters": {"assignee": "none"}},
                       message="how many tasks are there?")
    assert run["status"] == "done" and _ids(run) == {tasks["nobody"].pk}, run


def test_a_person_the_model_dropped_is_named_not_silently_left_out(alice: User, tasks: dict[str, Task],
                                                                   openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("query")).push_text("Here are the tasks.")
    run = post_request(alice, HOME, message="show tasks assigned to carol")
    assert run["reply"].startswith("I couldn't use 'assigned to carol', so the list is not narrowed by it."), run


@pytest.mark.parametrize(("message", "words"), [("show me everything I closed last week", "'last week'"),
                                                ("上周完成的任务", "“上周”")])
def test_a_week_no_due_range_takes_is_named_not_dropped(alice: User, tasks: dict[str, Task], message: str,
                                                        words: str) -> None:
    run = post_request(alice, HOME, message=message)  # the offline provider
    assert run["status"] == "done" and words in run["reply"], run
    assert tasks["carol_done"].pk in _ids(run)  # the filter it read (done) still applies
