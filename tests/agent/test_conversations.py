"""Conversations: runs belong to one, the API lists and reads the owner's own, the sidebar keeps the current one."""
from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from agent.models import Conversation, Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

HOME = {"page": "home", "origin": "sidebar"}
WORKBENCH = {"page": "home", "origin": "workbench"}


def _api(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _ask(client: APIClient, **body: Any) -> dict[str, Any]:
    context = WORKBENCH if "action" in body else HOME
    response = client.post("/api/assistant/requests/", {"page_context": context, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_request_without_a_conversation_starts_one_and_the_next_continues_it(alice: User) -> None:
    client = _api(alice)
    first = _ask(client, message="show my tasks")
    assert first["conversation_id"]
    second = _ask(client, action="my_overdue", conversation_id=first["conversation_id"])
    assert second["conversation_id"] == first["conversation_id"]
    conversation = Conversation.objects.get(pk=first["conversation_id"])
    assert conversation.user == alice and conversation.title == "show my tasks"
    assert list(conversation.runs.order_by("created_at").values_list("pk", flat=True)) == \
        [uuid.UUID(first["run_id"]), uuid.UUID(second["run_id"])]


def test_the_list_shows_only_my_conversations_with_runs_newest_first(alice: User, bob: User) -> None:
    mine = _ask(_api(alice), message="show my tasks")
    later = _ask(_api(alice), action="my_overdue")
    _ask(_api(bob), message="show my tasks")
    Conversation.objects.create(user=alice)  # empty: not listed
    response = _api(alice).get("/api/assistant/conversations/")
    assert response.status_code == 200
    results = response.json()["results"]
    assert [c["conversation_id"] for c in results] == [later["conversation_id"], mine["conversation_id"]]
    assert results[0]["title"] == "My overdue tasks" and results[0]["run_count"] == 1
    assert results[0]["pending_confirmations"] == 0


def test_an_offset_past_the_end_lists_none_and_still_counts_them_all(alice: User) -> None:
    _ask(_api(alice), message="show my tasks")
    body = _api(alice).get("/api/assistant/conversations/?offset=50").json()
    assert body == {"results": [], "count": 1, "next_offset": None}


def test_a_conversation_reads_with_its_runs_in_order_pending_cards_included(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Old landing page")
    client = _api(alice)
    first = _ask(client, message="show my tasks")
    pending = _ask(client, message=f"delete task #{task.pk}", conversation_id=first["conversation_id"])
    assert pending["status"] == "needs_confirmation"
    response = client.get(f"/api/assistant/conversations/{first['conversation_id']}/")
    assert response.status_code == 200
    body = response.json()
    assert [r["run_id"] for r in body["runs"]] == [first["run_id"], pending["run_id"]]
    assert body["runs"][1]["confirmation"]["facts"]["title"] == "Old landing page"
    assert body["pending_confirmations"] == 1 and body["run_count"] == 2


def test_someone_elses_or_a_missing_conversation_is_a_404_in_the_common_shape(alice: User, bob: User) -> None:
    theirs = _ask(_api(bob), message="show my tasks")["conversation_id"]
    for conversation_id in (theirs, str(uuid.uuid4())):
        response = _api(alice).get(f"/api/assistant/conversations/{conversation_id}/")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
        assert response.json()["error"]["fields"] == ["conversation_id"] or \
            "conversation_id" in str(response.json()["error"])
        # Nor may a request continue it.
        refused = _api(alice).post("/api/assistant/requests/", {"page_context": HOME, "message": "hi",
                                                                "conversation_id": conversation_id}, format="json")
        assert refused.status_code == 404
    assert not Run.objects.filter(user=alice).exists()


def test_a_refused_request_leaves_no_conversation_behind(alice: User) -> None:
    refused = _api(alice).post("/api/assistant/requests/", {"page_context": HOME, "action": "my_overdue"},
                               format="json")
    assert refused.status_code == 400
    assert not Conversation.objects.exists()


def test_anonymous_callers_get_401(alice: User) -> None:
    assert _api(None).get("/api/assistant/conversations/").status_code == 401
    assert _api(None).get(f"/api/assistant/conversations/{uuid.uuid4()}/").status_code == 401


def test_runs_made_before_conversations_have_none(alice: User) -> None:
    run = Run.objects.create(user=alice, status=Run.Status.DONE, reply="old")
    assert _api(alice).get(f"/api/assistant/runs/{run.pk}/").json()["conversation_id"] is None


@pytest.fixture
def browser_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def _sidebar_ask(client: Client, message: str) -> str:
    import json
    response = client.post("/assistant/request/", {"message": message, "page_context": json.dumps(HOME)})
    assert response.status_code == 200
    return response.content.decode()


def test_the_sidebar_keeps_one_conversation_per_session_and_renders_it_on_every_page(
        browser_client: Client, alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="Write the release notes", assignee=alice)
    _sidebar_ask(browser_client, "show my tasks")
    _sidebar_ask(browser_client, "show my blocked tasks")
    assert Conversation.objects.filter(user=alice).count() == 1
    conversation = Conversation.objects.get(user=alice)
    assert conversation.runs.count() == 2
    page = browser_client.get("/tasks/").content.decode()
    assert page.count('class="run run-') == 2
    assert page.index("show my tasks") < page.index("show my blocked tasks")


def test_a_new_conversation_empties_the_transcript_and_the_old_one_can_be_opened_again(
        browser_client: Client, alice: User) -> None:
    _sidebar_ask(browser_client, "show my tasks")
    old = Conversation.objects.get(user=alice)
    fresh = browser_client.post("/assistant/conversations/new/").content.decode()
    assert 'class="run run-' not in fresh
    assert 'class="run run-' not in browser_client.get("/").content.decode()
    listed = browser_client.get("/assistant/conversations/").content.decode()
    assert "show my tasks" in listed
    reopened = browser_client.post(f"/assistant/conversations/{old.pk}/open/").content.decode()
    assert "show my tasks" in reopened
    assert "show my tasks" in browser_client.get("/").content.decode()


def test_opening_someone_elses_conversation_is_refused(browser_client: Client, bob: User) -> None:
    theirs = Conversation.objects.create(user=bob, title="bob's")
    response = browser_client.post(f"/assistant/conversations/{theirs.pk}/open/")
    assert response.status_code == 404
    assert "bob's" not in browser_client.get("/").content.decode()


def test_a_pending_card_is_rendered_again_after_a_reload_and_still_decides(
        browser_client: Client, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Retire the old blog")
    _sidebar_ask(browser_client, f"delete task #{task.pk}")
    run = Run.objects.get(status=Run.Status.NEEDS_CONFIRMATION)
    page = browser_client.get("/").content.decode()
    assert f"/assistant/runs/{run.pk}/confirm/" in page and "Retire the old blog" in page
    assert '<span class="badge status-todo">To do</span>' in page  # as the pages write a status
    decided = browser_client.post(f"/assistant/runs/{run.pk}/confirm/", {"decision": "approve"})
    assert decided.status_code == 200
    assert not Task.objects.filter(pk=task.pk).exists()
