"""Execution: a wrong expectation stops exactly its step, the replanner revises the rest once, steps never repeat."""
from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
from langgraph.runtime import Runtime

from agent.capabilities.decompose import flow
from agent.context.three_views import ExecCtx
from agent.llm.client import LLMClient
from agent.llm.offline import OfflineProvider
from agent.models import Alert, Confirmation, Run, TraceEvent
from agent.run.trace import TraceRecorder
from agent.runtime import RunContext
from agent.tools.runner import ToolRunner
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub

from .helpers import audited, bind, break_down, change, confirm, create, in_days, plan, snapshot


@pytest.fixture
def parent(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Prepare the conference talk", status="in_progress")


@pytest.fixture
def bystander(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Unrelated chore")


PLANTED = plan(
    create("s1", "Outline the talk"),
    change("s2", "set_priority", expected_title="Prepare the keynote", expected_status="in_progress", priority="P0"),
    create("s3", "Rehearse the talk", parent=bind("s1")),
)


def test_a_planted_wrong_expectation_stops_exactly_that_step(openai_settings: LLMStub, alice: User, parent: Task,
                                                             bystander: Task) -> None:
    openai_settings.push_json(PLANTED).push_json({"steps": []})
    before = snapshot()
    body = break_down(alice, parent)
    assert body["confirmation"]["facts"]["mismatches"] == [
        {"step": "s2", "field": "title", "stated": "Prepare the keynote", "actual": "Prepare the conference talk"}]
    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "done", done
    statuses = {s["step"]: (s["status"], s["code"]) for s in done["data"]["steps"]}
    assert statuses == {"s1": ("done", None), "s2": ("failed", "fact_mismatch"), "s3": ("done", None)}
    [mismatch] = Alert.objects.filter(run_id=body["run_id"], kind="fact_mismatch")
    assert (mismatch.details["step"], mismatch.details["stated"], mismatch.details["actual"]) == \
        ("s2", "Prepare the keynote", "Prepare the conference talk")
    parent.refresh_from_db()
    assert parent.priority == "P2"  # the stopped step changed nothing
    assert Task.objects.get(title="Rehearse the talk").parent == Task.objects.get(title="Outline the talk")
    changed = {pk for pk, row in snapshot().items() if before.get(pk) != row}
    assert changed == set(Task.objects.filter(title__in=["Outline the talk", "Rehearse the talk"])
                          .values_list("pk", flat=True))
    assert "Not done" in done["reply"] and openai_settings.calls == 2  # the replanner was asked once
    audited(body["run_id"])


def test_the_replanner_revises_the_rest_which_needs_approval_again(openai_settings: LLMStub, alice: User,
                                                                   parent: Task) -> None:
    openai_settings.push_json(PLANTED)
    openai_settings.push_json(plan(
        change("s4", "set_priority", expected_title="Prepare the conference talk", expected_status="in_progress",
               priority="P0"),
        change("s5", "set_due_date", task=bind("s1"), expected_title="Outline the talk", expected_status="todo",
               due_date=in_days(3)),
    ))
    body = break_down(alice, parent)
    revised = confirm(alice, body["run_id"]).json()
    assert revised["status"] == "needs_confirmation", revised
    assert [s["id"] for s in revised["confirmation"]["steps"]] == ["s4", "s5"]
    assert revised["confirmation"]["facts"]["revision"] == 1
    assert len(revised["confirmation"]["facts"]["done"]) == 2
    replan_prompt = openai_settings.last_body["messages"][-1]["content"]
    assert "s2: failed" in replan_prompt and "s1: done" in replan_prompt
    parent.refresh_from_db()
    assert parent.priority == "P2"  # nothing of the revision runs before approval

    final = confirm(alice, body["run_id"]).json()
    assert final["status"] == "done", final
    parent.refresh_from_db()
    assert parent.priority == "P0"
    outline = Task.objects.get(title="Outline the talk")
    assert outline.due_date == date.fromisoformat(in_days(3))
    assert Task.objects.filter(title="Outline the talk").count() == 1  # done steps were not repeated
    assert TraceEvent.objects.filter(run_id=body["run_id"], name="decompose.step", payload__step="s1").count() == 1
    assert Confirmation.objects.filter(run_id=body["run_id"]).count() == 2
    assert openai_settings.calls == 2
    audited(body["run_id"])


def test_after_the_replan_budget_the_run_reports_what_was_not_done(openai_settings: LLMStub, alice: User,
                                                                   parent: Task) -> None:
    openai_settings.push_json(PLANTED)
    openai_settings.push_json(plan(change("s4", "set_priority", expected_title="Still wrong", priority="P0")))
    body = break_down(alice, parent)
    confirm(alice, body["run_id"])
    final = confirm(alice, body["run_id"]).json()
    assert final["status"] == "done", final  # s1 and s3 were done; the rest is reported
    missed = {s["step"]: s["code"] for s in final["data"]["steps"] if s["status"] != "done"}
    assert missed == {"s2": "fact_mismatch", "s4": "fact_mismatch"}
    assert final["reply"].count("Not done") == 2
    assert openai_settings.calls == 2  # no third ask: REPLAN_MAX is 1
    audited(body["run_id"])


def test_a_step_whose_key_already_ran_is_not_run_again(openai_settings: LLMStub, alice: User, parent: Task) -> None:
    openai_settings.push_json(plan(create("s1", "Outline the talk")))
    body = break_down(alice, parent)
    confirm(alice, body["run_id"])
    run = Run.objects.get(pk=body["run_id"])
    # Run the execute stage again as if its checkpoint were lost: the trace's ledger still knows s1.
    recorder = TraceRecorder(run)
    llm = LLMClient(provider=OfflineProvider(), recorder=recorder)
    runtime = Runtime(context=RunContext(recorder=recorder, llm=llm,
                                         tools=ToolRunner(user=alice, run_id=run.pk, recorder=recorder)))
    state = {"exec_ctx": ExecCtx(user_id=alice.pk), "parent_id": parent.pk, "results": {}, "log": [],
             "approved": plan(create("s1", "Outline the talk"))["steps"]}
    again = flow.execute(state, runtime)  # type: ignore[arg-type]
    assert [(e["step"], e["status"], e.get("reused")) for e in again["log"]] == [("s1", "done", True)]
    assert parent.subtasks.count() == 1
    assert again["results"]["s1"]["title"] == "Outline the talk"


def test_a_binding_to_a_step_that_failed_skips_the_dependent_step(openai_settings: LLMStub, alice: User,
                                                                  carol: User, parent: Task) -> None:
    openai_settings.push_json(plan(
        create("s1", "Outline the talk", due=in_days(-400)),  # refused by the tool: in the past
        create("s2", "Rehearse the talk", parent=bind("s1")),
        create("s3", "Book the room"),
    )).push_json({"steps": []})
    body = break_down(alice, parent)
    final = confirm(alice, body["run_id"]).json()
    statuses = {s["step"]: (s["status"], s["code"]) for s in final["data"]["steps"]}
    assert statuses == {"s1": ("failed", "invalid"), "s2": ("skipped", "binding_unresolved"), "s3": ("done", None)}
    assert {a.details["step"] for a in Alert.objects.filter(run_id=body["run_id"], kind="step_failed")} == {"s1", "s2"}
    assert list(parent.subtasks.values_list("title", flat=True)) == ["Book the room"]
    audited(body["run_id"])


def test_a_revised_step_may_not_bind_to_a_step_that_failed(openai_settings: LLMStub, alice: User,
                                                           parent: Task) -> None:
    openai_settings.push_json(PLANTED)
    openai_settings.push_json(plan(create("s4", "Follow up", parent=bind("s2"))))  # s2 stopped: nothing to bind
    body = break_down(alice, parent)
    final = confirm(alice, body["run_id"]).json()
    assert final["status"] == "done" and final["confirmation"] is None, final
    assert Alert.objects.filter(run_id=body["run_id"], kind="bad_binding").exists()
    assert not Task.objects.filter(title="Follow up").exists()


def test_losing_write_access_before_approval_fails_every_step(openai_settings: LLMStub, carol: User,
                                                              parent: Task) -> None:
    from projects.models import Membership

    openai_settings.push_json(plan(create("s1", "Outline the talk"), create("s2", "Book the room")))
    openai_settings.push_json({"steps": []})
    body = break_down(carol, parent)
    assert body["status"] == "needs_confirmation", body
    Membership.objects.filter(user=carol, project=parent.project).update(role=Membership.Role.VIEWER)
    final = confirm(carol, body["run_id"]).json()
    assert final["status"] == "error" and final["error_code"] == "forbidden", final
    assert {s["code"] for s in final["data"]["steps"]} == {"forbidden"}
    assert not parent.subtasks.exists()
    assert Alert.objects.filter(run_id=body["run_id"], kind="step_failed").count() == 2
