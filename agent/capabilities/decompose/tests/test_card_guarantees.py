"""The plan card keeps the delete card's guarantees: single use, owner only, re-checked, survives a reload."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agent.graph.graph import compiled_graph
from agent.models import Confirmation, Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create, task_update
from tests.helpers import LLMStub

from .helpers import audited, break_down, client, confirm, create, plan


@pytest.fixture
def parent(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Ship the mobile release")


TWO = plan(create("s1", "Freeze the strings"), create("s2", "Submit to the store"))


@pytest.mark.parametrize(("first", "second"), [("approve", "approve"), ("reject", "approve"), ("approve", "reject")])
def test_a_plan_decision_counts_once(openai_settings: LLMStub, alice: User, parent: Task, first: str,
                                     second: str) -> None:
    openai_settings.push_json(TWO)
    body = break_down(alice, parent)
    assert confirm(alice, body["run_id"], first).status_code == 200
    again = confirm(alice, body["run_id"], second)
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"
    assert parent.subtasks.count() == (2 if first == "approve" else 0)
    audited(body["run_id"])


def test_only_the_owner_may_approve(openai_settings: LLMStub, alice: User, carol: User, parent: Task) -> None:
    openai_settings.push_json(TWO)
    body = break_down(alice, parent)
    assert confirm(carol, body["run_id"]).status_code == 404  # carol is a member, but the run is alice's
    assert not parent.subtasks.exists()
    assert Confirmation.objects.get(run_id=body["run_id"]).decided_at is None
    assert confirm(alice, body["run_id"]).json()["status"] == "done"


@pytest.mark.parametrize("change", ["title", "new_subtask", "status"])
def test_a_parent_changed_between_plan_and_approval_aborts(openai_settings: LLMStub, alice: User, parent: Task,
                                                           change: str) -> None:
    openai_settings.push_json(TWO)
    body = break_down(alice, parent)
    if change == "title":
        task_update(actor=alice, task=parent, title="Ship the mobile release 2.0")
    elif change == "status":
        task_update(actor=alice, task=parent, status="blocked")
    else:
        task_create(actor=alice, project=parent.project, title="Someone else's subtask", parent=parent)
    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "error" and done["error_code"] == "target_changed", done
    assert not Task.objects.filter(title__in=["Freeze the strings", "Submit to the store"]).exists()
    assert openai_settings.calls == 1
    audited(body["run_id"])


def test_reload_while_pending_shows_the_same_card_and_approval_still_works(openai_settings: LLMStub, alice: User,
                                                                           parent: Task) -> None:
    openai_settings.push_json(TWO)
    body = break_down(alice, parent)
    for _ in range(2):
        again = client(alice).get(f"/api/assistant/runs/{body['run_id']}/").json()
        assert again["status"] == "needs_confirmation"
        assert again["confirmation"] == body["confirmation"]
    assert not parent.subtasks.exists()
    # Nothing survives in memory between requests: the checkpoint is all there is.
    compiled_graph.cache_clear()
    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "done", done
    assert parent.subtasks.count() == 2 and openai_settings.calls == 1
    assert Run.objects.get(pk=body["run_id"]).llm_calls == 1


def test_the_sidebar_card_lists_the_plan_and_unchecked_steps_are_dropped(openai_settings: LLMStub, alice: User,
                                                                         parent: Task) -> None:
    openai_settings.push_json(TWO)
    browser = Client()
    browser.force_login(alice)
    page_context = json.dumps({"page": "task_list", "origin": "quick_button",
                               "selectedEntity": {"type": "task", "id": parent.pk}})
    html = browser.post("/assistant/request/", {"action": "decompose_task", "page_context": page_context})
    text = html.content.decode()
    assert 'name="keep_steps" value="s1" checked' in text and "Freeze the strings" in text
    assert "Ship the mobile release" in text
    run_id = Run.objects.get().pk
    done = browser.post(f"/assistant/runs/{run_id}/confirm/",
                        {"decision": "approve", "plan_steps": ["s1", "s2"], "keep_steps": ["s2"]})
    assert done.status_code == 200
    assert '"tasks-changed"' in done["HX-Trigger"]
    assert list(parent.subtasks.values_list("title", flat=True)) == ["Submit to the store"]


def test_a_parent_deleted_before_approval_aborts(openai_settings: LLMStub, alice: User, parent: Task) -> None:
    openai_settings.push_json(TWO)
    body = break_down(alice, parent)
    parent.delete()
    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "error" and done["error_code"] == "target_changed", done
    assert not Task.objects.exists()


def test_a_typed_number_of_a_task_the_user_cannot_see_is_not_found(alice: User, bob: User, parent: Task) -> None:
    hidden_project = Project.objects.create(owner=bob, name="Data Platform", key="DATA")
    hidden = Task.objects.create(project=hidden_project, title="Rotate the keys", created_by=bob)
    body = client(alice).post("/api/assistant/requests/", {"message": f"break #{hidden.pk} down",
                                                           "page_context": {"page": "home", "origin": "sidebar"}},
                              format="json").json()
    assert body["status"] == "error" and body["error_code"] == "not_found", body
    assert not hidden.subtasks.exists() and body["confirmation"] is None


def test_drop_steps_on_a_delete_card_is_refused(alice: User, parent: Task) -> None:
    body = client(alice).post("/api/assistant/requests/", {"action": "delete_task", "page_context": {
        "page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": parent.pk}}},
        format="json").json()
    refused = confirm(alice, body["run_id"], drop_steps=["s1"])
    assert refused.status_code == 400 and "drop_steps" in refused.json()["error"]["fields"]
    assert Confirmation.objects.get(run_id=body["run_id"]).decided_at is None
    assert Task.objects.filter(pk=parent.pk).exists()
