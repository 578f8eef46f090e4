"""A scripted model plans; the card shows the plan; approval runs it with bindings filled by the runtime."""
from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.models import Alert, Run, TraceEvent
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub

from .helpers import audited, bind, break_down, change, client, confirm, create, in_days, plan


@pytest.fixture
def parent(alice: User, carol: User, website: Project) -> Task:
    carol.first_name, carol.last_name = "Carol", "Chen"
    carol.save()
    return task_create(actor=alice, project=website, title="Redesign the pricing page", status="in_progress",
                       priority="P2", description="New tiers, new copy.")


def good_plan() -> dict[str, Any]:
    """Built when a test runs: a plan built at import would be a day behind after midnight."""
    return plan(
        create("s1", "Write the tier copy", due=in_days(7), priority="P1", assignee="carol"),
        create("s2", "Design the tier cards", due=in_days(10)),
        create("s3", "Proofread the tier copy", parent=bind("s1"), due=in_days(8)),
        change("s4", "set_priority", expected_title="Redesign the pricing page", expected_status="in_progress",
               priority="P1"),
    )


def test_good_plan_card_then_approve_creates_subtasks_with_bound_parents(openai_settings: LLMStub, alice: User,
                                                                         parent: Task) -> None:
    openai_settings.push_json(good_plan())
    body = break_down(alice, parent)
    assert body["status"] == "needs_confirmation", body
    assert body["usage"]["llm_calls"] == 1
    steps = body["confirmation"]["steps"]
    assert [s["id"] for s in steps] == ["s1", "s2", "s3", "s4"]
    assert steps[0]["assignee"] == "Carol Chen" and steps[0]["due_date"] == in_days(7)
    assert steps[2]["depends_on"] == ["s1"] and not steps[2]["under_selected"]
    assert body["confirmation"]["facts"]["parent"]["title"] == "Redesign the pricing page"
    assert body["confirmation"]["facts"]["planner"] == "model"
    assert not Task.objects.filter(parent__isnull=False).exists()

    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "done", done
    copy = Task.objects.get(title="Write the tier copy")
    assert (copy.parent_id, copy.priority, copy.due_date, copy.assignee.username) == \
        (parent.pk, "P1", date.fromisoformat(in_days(7)), "carol")
    assert Task.objects.get(title="Design the tier cards").parent_id == parent.pk
    assert Task.objects.get(title="Proofread the tier copy").parent_id == copy.pk
    parent.refresh_from_db()
    assert parent.priority == "P1"
    assert openai_settings.calls == 1  # approval runs fixed code: no model

    trace = client(alice).get(f"/api/assistant/runs/{body['run_id']}/trace/").json()
    by_step = {(b["step"], b["name"]): b["binding"] for b in trace["bindings"]}
    assert by_step[("s3", "parent_id")] == "step s1 at $.id"
    assert by_step[("s1", "parent_id")] == "step selected at $.id"
    step_events = [e for e in trace["events"] if e["name"] == "decompose.step"]
    s3 = next(e for e in step_events if e["step"] == "s3")
    assert s3["input"]["parent_id"] == {"from_step": "s1", "path": "$.id"}
    assert s3["bindings"]["parent_id"]["from_step"] == "s1" and s3["bindings"]["parent_id"]["value"] == copy.pk
    assert s3["output"]["id"] == Task.objects.get(title="Proofread the tier copy").pk
    assert trace["audit"]["passed"], trace["audit"]


def test_the_planner_sees_words_not_ids_or_raw_context(openai_settings: LLMStub, alice: User, parent: Task) -> None:
    # A number no date or step id in the prompt could contain, so its absence means something.
    parent = Task.objects.create(id=987654, project=parent.project, title=parent.title, status=parent.status,
                                 description=parent.description, created_by=alice)
    openai_settings.push_json(good_plan())
    break_down(alice, parent)
    sent = openai_settings.last_body
    text = "\n".join(m["content"] for m in sent["messages"])
    assert "“Redesign the pricing page”" in text and "carol (“Carol Chen”)" in text
    assert not re.search(rf"(?<![\w-]){parent.pk}(?![\w-])", text)
    for raw in ("selectedEntity", "routeParams", "projectId", "quick_button", "origin", "{\"page\""):
        assert raw not in text, raw
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["model"] == "gpt-4o"  # the generation model plans


def test_unchecking_a_step_drops_it_and_every_step_bound_to_it(openai_settings: LLMStub, alice: User,
                                                              parent: Task) -> None:
    openai_settings.push_json(good_plan())
    body = break_down(alice, parent)
    done = confirm(alice, body["run_id"], drop_steps=["s1"]).json()
    assert done["status"] == "done", done
    assert list(parent.subtasks.values_list("title", flat=True)) == ["Design the tier cards"]
    assert not Task.objects.filter(title__in=["Write the tier copy", "Proofread the tier copy"]).exists()
    review = TraceEvent.objects.get(run_id=body["run_id"], name="decompose.review")
    assert review.payload["dropped"] == ["s1", "s3"]
    audited(body["run_id"])


def test_drop_steps_must_name_steps_of_the_plan(openai_settings: LLMStub, alice: User, parent: Task) -> None:
    openai_settings.push_json(good_plan())
    body = break_down(alice, parent)
    refused = confirm(alice, body["run_id"], drop_steps=["s9"])
    assert refused.status_code == 400 and "drop_steps" in refused.json()["error"]["fields"]
    assert confirm(alice, body["run_id"], drop_steps=[]).json()["status"] == "done"


def test_reject_writes_nothing(openai_settings: LLMStub, alice: User, parent: Task) -> None:
    openai_settings.push_json(good_plan())
    body = break_down(alice, parent)
    rejected = confirm(alice, body["run_id"], "reject").json()
    assert rejected["status"] == "done" and rejected["data"]["rejected"] is True
    assert not parent.subtasks.exists()
    parent.refresh_from_db()
    assert parent.priority == "P2"
    audited(body["run_id"])


def test_free_text_routes_to_the_breakdown_of_the_typed_task(openai_settings: LLMStub, alice: User,
                                                            parent: Task) -> None:
    slots = {"operation": None, "task_id": parent.pk, "title": None, "status": None, "priority": None,
             "due_date": None, "scope": None, "expected_title": None, "expected_status": None,
             "status_filter": [], "priority_filter": [], "assignee_me": False, "preset": None}
    openai_settings.push_json({"capability": "decompose", "confidence": 0.9, "slots": slots})
    openai_settings.push_json(plan(create("s1", "Write the tier copy")))
    body = break_down(alice, parent, message=f"break #{parent.pk} down")
    assert body["route"] == {"capability": "decompose", "via": "llm_router"}
    assert body["status"] == "needs_confirmation", body
    assert confirm(alice, body["run_id"]).json()["status"] == "done"
    assert list(parent.subtasks.values_list("title", flat=True)) == ["Write the tier copy"]
    assert Run.objects.get(pk=body["run_id"]).llm_calls == 2
    audited(body["run_id"])


def test_a_viewer_gets_no_card(openai_settings: LLMStub, alice: User, dave: User, parent: Task) -> None:
    body = break_down(dave, parent)
    assert body["status"] == "error" and body["error_code"] == "forbidden"
    assert openai_settings.calls == 0 and not Alert.objects.exists()


def test_an_approved_plan_says_which_steps_the_user_dropped(openai_settings: LLMStub, alice: User,
                                                            parent: Task) -> None:
    openai_settings.push_json(good_plan())
    body = break_down(alice, parent)
    dropped_words = next(s["words"] for s in body["confirmation"]["steps"] if s["id"] == "s2")
    done = confirm(alice, body["run_id"], drop_steps=["s2"]).json()
    assert done["status"] == "done", done
    # Exactly the approved steps ran: the dropped one wrote nothing.
    assert sorted(Task.objects.filter(parent__isnull=False).values_list("title", flat=True)) == \
        ["Proofread the tier copy", "Write the tier copy"]
    # The answer counts the approved steps and names the one left out, in the words of the card.
    assert "Done 3 of 3 steps." in done["reply"], done["reply"]
    assert f"Left out, as you unchecked it: {dropped_words}." in done["reply"], done["reply"]
    assert {s["step"]: s["status"] for s in done["data"]["steps"]} == \
        {"s1": "done", "s2": "dropped", "s3": "done", "s4": "done"}
    audited(body["run_id"])
