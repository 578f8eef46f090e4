"""Input hygiene on the assistant's and the report pages' surface: wrong types and bad values are 400s
naming the field, nothing is written for them, and stored one-line texts carry no invisible controls."""
from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from agent.models import Conversation, Run
from projects.services import project_create
from tasks.models import Task
from tests.clients import api_client

PAGE = {"page": "home", "origin": "sidebar"}
INVISIBLE = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d"


def _error_fields(response: Any) -> dict[str, Any]:
    body = response.json()
    return body["error"]["fields"]


@pytest.mark.parametrize("message", [1e308, 5, True, ["mark task 5 done"], {"text": "hi"}])
def test_a_message_that_is_not_a_string_is_a_400_naming_it(alice: Any, message: Any) -> None:
    response = api_client(alice).post("/api/assistant/requests/", {"message": message, "page_context": PAGE},
                                      format="json")
    assert response.status_code == 400, response.content
    assert "message" in _error_fields(response)
    assert not Conversation.objects.exists() and not Run.objects.exists()


@pytest.mark.parametrize("conversation_id", [5, 0, True, 1.5, ["x"], "abc"])
def test_a_conversation_id_that_is_not_a_uuid_string_is_a_400_not_a_404(alice: Any, conversation_id: Any) -> None:
    response = api_client(alice).post("/api/assistant/requests/", {"message": "hello", "page_context": PAGE,
                                                                   "conversation_id": conversation_id}, format="json")
    assert response.status_code == 400, response.content
    assert "conversation_id" in _error_fields(response)
    assert not Run.objects.exists()


def test_an_action_that_is_not_a_string_is_a_400_naming_it(alice: Any) -> None:
    response = api_client(alice).post("/api/assistant/requests/", {"action": 5, "page_context": PAGE}, format="json")
    assert response.status_code == 400 and _error_fields(response) == {"action": ["Must be a string."]}


@pytest.mark.parametrize("field, value", [("title", 123), ("title", 1e308), ("labels", ["ok", 7])])
def test_task_text_fields_given_as_numbers_are_400s(alice: Any, website: Any, field: str, value: Any) -> None:
    body = {"project": website.pk, "title": "A real title", field: value}
    response = api_client(alice).post("/api/tasks/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in _error_fields(response)
    assert not Task.objects.exists()


@pytest.mark.parametrize("query", ["week=%F0%9F%98%80", "week=0000-W00", "week=2026-W99", "week=%EF%BC%92%EF%BC%90"
                                   "%EF%BC%92%EF%BC%96-W01", "format=pdf", "format=MD", "week=0000-W00&format=md",
                                   "week=%F0%9F%98%80&format=md"])
def test_bad_week_and_format_values_on_the_report_pages_are_400s(alice: Any, website: Any, query: str) -> None:
    browser = Client()
    browser.force_login(alice)
    for url in ("/reports/weekly/", f"/projects/{website.pk}/reports/weekly/"):
        response = browser.get(f"{url}?{query}")
        assert response.status_code == 400, (url, query, response.status_code)
        # Never a download of another week than the one asked for.
        assert "Content-Disposition" not in response
        text = response.content.decode()
        assert "week:" in text or "format:" in text


def test_the_markdown_download_still_works(alice: Any, website: Any) -> None:
    browser = Client()
    browser.force_login(alice)
    response = browser.get(f"/projects/{website.pk}/reports/weekly/?week=2026-W01&format=md")
    assert response.status_code == 200 and response["Content-Disposition"].endswith('-2026-W01.md"')


def test_conversation_titles_drop_bidi_and_zero_width_controls(alice: Any) -> None:
    message = f"summarise\u202e this{INVISIBLE} task\u200b"
    response = api_client(alice).post("/api/assistant/requests/", {"message": message, "page_context": PAGE},
                                      format="json")
    assert response.status_code == 200, response.content
    title = Conversation.objects.get().title
    assert title == "summarise this task"
    listed = api_client(alice).get("/api/assistant/conversations/").json()
    assert not any(ch in str(listed) for ch in INVISIBLE)


def test_task_titles_labels_and_project_names_drop_them_too(alice: Any, website: Any) -> None:
    response = api_client(alice).post("/api/tasks/", {"project": website.pk, "title": f"Pay\u202e invoice{INVISIBLE}",
                                                      "labels": ["ur\u200bgent"]}, format="json")
    assert response.status_code == 201, response.content
    task = Task.objects.get()
    assert task.title == "Pay invoice" and [label.name for label in task.labels.all()] == ["urgent"]
    patched = api_client(alice).patch(f"/api/tasks/{task.pk}/", {"title": "\u2066Pay\u2069 bills"}, format="json")
    assert patched.status_code == 200, patched.content
    task.refresh_from_db()
    assert task.title == "Pay bills"
    assert project_create(owner=alice, name=f"\u202eOps{INVISIBLE}", key="OPS").name == "Ops"


def test_a_title_of_invisible_controls_only_is_blank(alice: Any, website: Any) -> None:
    response = api_client(alice).post("/api/tasks/", {"project": website.pk, "title": INVISIBLE}, format="json")
    assert response.status_code == 400 and "title" in _error_fields(response)
    assert not Task.objects.exists()
