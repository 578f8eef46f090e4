"""Renaming, deleting and searching conversations: the owner's own only, bad input refused naming the field,
nothing written for a refused request; and the list tells apart conversations of the same title."""
from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from agent.models import Conversation, Run
from agent.run.conversations import TITLE_FIELD_MAX

WORKBENCH = {"page": "home", "origin": "workbench"}
HOME = {"page": "home", "origin": "sidebar"}


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _ask(client: APIClient, **body: Any) -> dict[str, Any]:
    context = WORKBENCH if "action" in body else HOME
    response = client.post("/api/assistant/requests/", {"page_context": context, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _url(conversation_id: str) -> str:
    return f"/api/assistant/conversations/{conversation_id}/"


def test_conversations_of_the_same_title_are_numbered_in_the_order_they_began(alice: User) -> None:
    first = _ask(_api(alice), action="my_overdue")
    second = _ask(_api(alice), action="my_overdue")
    _ask(_api(alice), message="show my tasks")
    results = _api(alice).get("/api/assistant/conversations/").json()["results"]
    labels = {c["conversation_id"]: c["label"] for c in results}
    assert labels[first["conversation_id"]] == "My overdue tasks (1)"
    assert labels[second["conversation_id"]] == "My overdue tasks (2)"
    assert [c["label"] for c in results if c["title"] == "show my tasks"] == ["show my tasks"]


def test_the_owner_renames_a_conversation(alice: User) -> None:
    asked = _ask(_api(alice), message="show my tasks")
    response = _api(alice).patch(_url(asked["conversation_id"]), {"title": "  Sprint triage  "}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["title"] == "Sprint triage"
    assert Conversation.objects.get(pk=asked["conversation_id"]).title == "Sprint triage"


def test_a_renamed_title_drops_bidi_and_zero_width_controls(alice: User) -> None:
    asked = _ask(_api(alice), message="show my tasks")
    response = _api(alice).patch(_url(asked["conversation_id"]), {"title": "Sprint\u202e tri\u200bage\u2069"},
                                 format="json")
    assert response.status_code == 200, response.content
    assert Conversation.objects.get(pk=asked["conversation_id"]).title == "Sprint triage"


@pytest.mark.parametrize(("body", "field"), [
    ({"title": "   "}, "title"),
    ({"title": "x" * (TITLE_FIELD_MAX + 1)}, "title"),
    ({"title": "line\nbreak"}, "title"),
    ({"title": 42, "colour": "red"}, "colour"),
    ({}, "title"),
    ({"title": ["a"]}, "title"),
    ({"title": "\u202e\u200b\u2066"}, "title"),
])
def test_a_bad_title_is_refused_naming_the_field_and_nothing_changes(alice: User, body: dict[str, Any],
                                                                    field: str) -> None:
    asked = _ask(_api(alice), message="show my tasks")
    response = _api(alice).patch(_url(asked["conversation_id"]), body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"]
    assert Conversation.objects.get(pk=asked["conversation_id"]).title == "show my tasks"


def test_someone_elses_conversation_is_not_found_for_rename_and_delete(alice: User, bob: User) -> None:
    theirs = _ask(_api(bob), message="show my tasks")["conversation_id"]
    for response in (_api(alice).patch(_url(theirs), {"title": "Mine now"}, format="json"),
                     _api(alice).delete(_url(theirs)), _api(alice).delete(_url(str(uuid.uuid4())))):
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == "not_found"
    conversation = Conversation.objects.get(pk=theirs)
    assert conversation.title == "show my tasks"


def test_the_owner_deletes_a_conversation_and_its_runs_stay_for_the_audit(alice: User) -> None:
    asked = _ask(_api(alice), message="show my tasks")
    response = _api(alice).delete(_url(asked["conversation_id"]))
    assert response.status_code == 204
    assert not Conversation.objects.filter(pk=asked["conversation_id"]).exists()
    assert Run.objects.get(pk=asked["run_id"]).conversation is None
    assert _api(alice).get(_url(asked["conversation_id"])).status_code == 404
    assert _api(alice).get("/api/assistant/conversations/").json()["results"] == []


def test_search_finds_the_owners_conversations_by_title_or_message(alice: User, bob: User) -> None:
    overdue = _ask(_api(alice), action="my_overdue")
    blocked = _ask(_api(alice), message="show my blocked tasks")
    _ask(_api(alice), message="anything else", conversation_id=overdue["conversation_id"])
    _ask(_api(bob), message="show my blocked tasks")

    def found(search: str) -> list[str]:
        response = _api(alice).get("/api/assistant/conversations/", {"search": search})
        assert response.status_code == 200, response.content
        return [c["conversation_id"] for c in response.json()["results"]]

    assert found("BLOCKED") == [blocked["conversation_id"]]
    assert found("anything") == [overdue["conversation_id"]]
    assert found("nothing like it") == []
    assert len(found("")) == 2


@pytest.mark.parametrize(("query", "field"), [({"search": "x" * 201}, "search"), ({"search": "a\x00"}, "search"),
                                              ({"serch": "x"}, "serch")])
def test_a_bad_search_is_refused_naming_the_field(alice: User, query: dict[str, str], field: str) -> None:
    response = _api(alice).get("/api/assistant/conversations/", query)
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"]


def test_the_sidebar_refuses_a_blank_title_and_someone_elses_conversation(alice: User, bob: User) -> None:
    browser_client = Client()
    browser_client.force_login(alice)
    mine = _ask(_api(alice), message="show my tasks")["conversation_id"]
    theirs = _ask(_api(bob), message="show my tasks")["conversation_id"]
    blank = browser_client.post(f"/assistant/conversations/{mine}/rename/", {"title": " "})
    assert blank.status_code == 400 and b"title:" in blank.content
    for url in (f"/assistant/conversations/{theirs}/rename/", f"/assistant/conversations/{theirs}/delete/"):
        assert browser_client.post(url, {"title": "Mine"}).status_code == 404
    assert Conversation.objects.get(pk=theirs).title == "show my tasks"
    assert Conversation.objects.get(pk=mine).title == "show my tasks"
