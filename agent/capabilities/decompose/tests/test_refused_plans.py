"""Malicious and broken plans are refused with a named alert, the planner is asked once more, nothing changes."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.models import Alert, Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub

from .helpers import audited, bind, break_down, change, confirm, create, plan, snapshot


@pytest.fixture
def parent(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Migrate the blog", status="todo")


@pytest.fixture
def foreign(bob: User, platform: Project) -> Task:
    """A task of bob's project, which alice cannot see."""
    return task_create(actor=bob, project=platform, title="Rotate the warehouse keys", priority="P3")


def _broken(kind: str, foreign: Task) -> dict[str, Any]:
    if kind == "literal_id":
        return plan(create("s1", "Draft"), change("s2", "set_priority", task=foreign.pk, priority="P0"))  # type: ignore[arg-type]
    if kind == "literal_id_elsewhere":
        return plan({"id": "s1", "tool": "create_subtask",
                     "args": {"parent_id": bind(), "title": "Draft", "due_date": None, "priority": None,
                              "assignee": None, "project_id": foreign.project_id}})
    if kind == "unknown_tool":
        return plan(create("s1", "Draft"), {"id": "s2", "tool": "delete_task", "args": {"task_id": bind()}})
    if kind == "plan_too_long":
        return plan(*(create(f"s{n}", f"Part {n}") for n in range(1, 10)))
    if kind == "missing_step":
        return plan(create("s1", "Draft"), create("s2", "Review", parent=bind("s7")))
    if kind == "later_step":
        return plan(create("s1", "Review", parent=bind("s2")), create("s2", "Draft"))
    if kind == "path_to_nothing":
        return plan(create("s1", "Draft"), create("s2", "Review", parent=bind("s1", "$.items[0].id")))
    # What a broken or hostile planner may send that the step checks once let through to a crash or a
    # write other than the card's: an extra key on a step, an id with a newline, a day with a time, a
    # path nested past the parser's recursion, and a subtask's parent_id standing in for its id.
    if kind == "extra_step_key":
        return plan({**create("s1", "Draft"), "why": "because"})
    if kind == "step_id_newline":
        return plan(create("s1\n", "Draft"))
    if kind == "day_with_a_time":
        return plan(create("s1", "Draft", due="2030-12-01T00:00:00"))
    if kind == "day_as_a_timestamp":
        return plan(create("s1", "Draft", due="1924905600"))
    if kind == "deep_path":
        return plan(create("s1", "Draft"), create("s2", "Review", parent=bind("s1", "$" + ".id" * 1000)))
    if kind == "parent_for_id":
        return plan(create("s1", "Draft"), change("s2", "set_priority", task=bind("s1", "$.parent_id"), priority="P0"))
    raise AssertionError(kind)


ALERT = {"literal_id": "literal_id", "literal_id_elsewhere": "literal_id", "unknown_tool": "unknown_tool",
         "plan_too_long": "plan_too_long", "missing_step": "bad_binding", "later_step": "bad_binding",
         "path_to_nothing": "binding_unresolved", "extra_step_key": "invalid_plan",
         "step_id_newline": "invalid_plan", "day_with_a_time": "invalid_plan", "day_as_a_timestamp": "invalid_plan",
         "deep_path": "binding_unresolved", "parent_for_id": "binding_unresolved"}


@pytest.mark.parametrize("kind", sorted(ALERT))
def test_a_broken_plan_twice_ends_the_run_with_its_alert_and_nothing_changed(
        openai_settings: LLMStub, alice: User, parent: Task, foreign: Task, kind: str) -> None:
    before = snapshot()
    openai_settings.push_json(_broken(kind, foreign)).push_json(_broken(kind, foreign))
    body = break_down(alice, parent)
    assert body["status"] == "error" and body["error_code"] == "plan_refused", body
    assert openai_settings.calls == 2  # asked once more, then no more
    alerts = Alert.objects.filter(run_id=body["run_id"])
    assert {a.kind for a in alerts} == {ALERT[kind]}
    assert {a.details["ask"] for a in alerts} == {1, 2}
    assert snapshot() == before
    assert body["confirmation"] is None
    audited(body["run_id"])


def test_a_refused_plan_is_followed_by_one_more_ask_with_the_reasons(openai_settings: LLMStub, alice: User,
                                                                    parent: Task, foreign: Task) -> None:
    openai_settings.push_json(_broken("literal_id", foreign))
    fixed = change("s2", "set_priority", expected_title="Migrate the blog", expected_status="todo", priority="P1")
    openai_settings.push_json(plan(create("s1", "Draft"), fixed))
    body = break_down(alice, parent)
    assert body["status"] == "needs_confirmation", body
    second = openai_settings.last_body["messages"][-1]["content"]
    assert "Your previous plan was refused" in second and "ids must be bindings" in second
    assert Alert.objects.get(run_id=body["run_id"]).kind == "literal_id"
    assert confirm(alice, body["run_id"]).json()["status"] == "done"
    foreign.refresh_from_db()
    assert foreign.priority == "P3"
    parent.refresh_from_db()
    assert parent.priority == "P1"
    audited(body["run_id"])


@pytest.mark.parametrize("replan_max", [0, 1, 2])
def test_a_planner_that_always_fails_is_asked_at_most_one_plus_replan_max_times(
        openai_settings: LLMStub, settings: Any, alice: User, parent: Task, foreign: Task, replan_max: int) -> None:
    settings.REPLAN_MAX = replan_max
    for _ in range(5):
        openai_settings.push_json(_broken("unknown_tool", foreign))
    body = break_down(alice, parent)
    assert body["error_code"] == "plan_refused"
    assert openai_settings.calls == 1 + replan_max
    assert Run.objects.get(pk=body["run_id"]).llm_calls == 1 + replan_max


def test_answers_that_are_not_json_count_against_the_same_budget(openai_settings: LLMStub, alice: User,
                                                                 parent: Task) -> None:
    openai_settings.push_malformed().push_malformed().push_malformed()
    body = break_down(alice, parent)
    assert body["error_code"] == "plan_refused" and openai_settings.calls == 2
    assert not parent.subtasks.exists()


def test_plan_max_steps_is_a_setting(openai_settings: LLMStub, settings: Any, alice: User, parent: Task) -> None:
    settings.PLAN_MAX_STEPS = 2
    three = plan(create("s1", "A part"), create("s2", "B part"), create("s3", "C part"))
    openai_settings.push_json(three).push_json(three)
    body = break_down(alice, parent)
    assert Alert.objects.filter(run_id=body["run_id"], kind="plan_too_long").count() == 2


def test_an_assignee_outside_the_project_is_refused(openai_settings: LLMStub, alice: User, bob: User,
                                                   parent: Task) -> None:
    bad = plan(create("s1", "Draft", assignee="bob"))
    openai_settings.push_json(bad).push_json(bad)
    body = break_down(alice, parent)
    assert body["error_code"] == "plan_refused"
    assert Alert.objects.filter(run_id=body["run_id"], kind="invalid_plan").exists()
