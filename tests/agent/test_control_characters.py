"""Control characters in typed text are a 400 naming the field, from the API and the sidebar, never a 500."""
from __future__ import annotations

import json
from html import unescape
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from agent.models import Alert, Confirmation, Run, TraceEvent
from tasks.models import Task, TaskActivity

API = "/api/assistant/requests/"
SIDEBAR = "/assistant/request/"
PAGE = {"page": "task_list", "origin": "sidebar"}

# (name, message, page context, field the 400 names)
CASES: list[tuple[str, str, dict[str, Any], str]] = [
    ("nul-keyword", "show my tasks", {**PAGE, "searchKeyword": "login\x00page"}, "page_context.searchKeyword"),
    ("escape-keyword", "show my tasks", {**PAGE, "searchKeyword": "\x1b[31mred"}, "page_context.searchKeyword"),
    ("newline-keyword", "show my tasks", {**PAGE, "searchKeyword": "a\nb"}, "page_context.searchKeyword"),
    ("nul-label", "show my tasks", {**PAGE, "filters": {"labels": ["frontend", "back\x00end"]}},
     "page_context.filters.labels[1]"),
    ("c1-label", "show my tasks", {**PAGE, "filters": {"labels": ["\x85"]}}, "page_context.filters.labels[0]"),
    ("del-label", "show my tasks", {**PAGE, "filters": {"labels": ["x\x7f"]}}, "page_context.filters.labels[0]"),
    ("nul-message", "show\x00my tasks", PAGE, "message"),
]
IDS = [name for name, *_ in CASES]


def _written() -> tuple[int, ...]:
    return (Run.objects.count(), Confirmation.objects.count(), TraceEvent.objects.count(), Alert.objects.count(),
            Task.objects.count(), TaskActivity.objects.count())


@pytest.mark.parametrize(("name", "message", "page_ctx", "field"), CASES, ids=IDS)
def test_api_refuses_control_characters(alice: Any, website: Any, name: str, message: str, page_ctx: dict[str, Any],
                                        field: str) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    before = _written()
    response = client.post(API, {"message": message, "page_context": page_ctx}, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid" and field in error["fields"], error
    assert error["message"].startswith(f"{field}: "), error["message"]
    assert _written() == before


@pytest.mark.parametrize(("name", "message", "page_ctx", "field"), CASES, ids=IDS)
def test_sidebar_refuses_control_characters(alice: Any, website: Any, name: str, message: str,
                                            page_ctx: dict[str, Any], field: str) -> None:
    client = Client()
    client.force_login(alice)
    before = _written()
    response = client.post(SIDEBAR, {"message": message, "page_context": json.dumps(page_ctx)})
    assert response.status_code == 400, response.content
    html = response.content.decode()
    # The heading is one of the error words (agent/words/errors.py), escaped like any other value.
    assert 'class="run run-error"' in html and "That didn't work." in unescape(html)
    # A person reads what to do, never the field path the API names.
    assert "invisible control character" in html and f"{field}: " not in html, html
    assert _written() == before


def test_sidebar_takes_the_same_message_the_api_takes(alice: Any, website: Any) -> None:
    """A message over the API's limit is refused by the sidebar too; a multi-line message is fine."""
    client = Client()
    client.force_login(alice)
    context = json.dumps({**PAGE, "searchKeyword": "café ✓ 登录", "filters": {"labels": ["front-end"]}})
    too_long = client.post(SIDEBAR, {"message": "m" * 2001, "page_context": context})
    assert too_long.status_code == 400 and "Your message is too long" in too_long.content.decode()
    assert not Run.objects.exists()
    response = client.post(SIDEBAR, {"message": "show my tasks\nthat are late", "page_context": context})
    assert response.status_code == 200, response.content
    run = Run.objects.get()
    assert run.message == "show my tasks\nthat are late"
    assert run.page_context["searchKeyword"] == "café ✓ 登录"


def test_other_control_characters_in_a_message_are_refused_too(alice: Any, website: Any) -> None:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(alice)
    refused = client.post("/api/assistant/requests/", {
        "message": "show\x1b[31m my tasks", "page_context": {"page": "home", "origin": "sidebar"}}, format="json")
    assert refused.status_code == 400 and "message" in refused.json()["error"]["fields"]
    fine = client.post("/api/assistant/requests/", {
        "message": "show my tasks\n\tplease", "page_context": {"page": "home", "origin": "sidebar"}}, format="json")
    assert fine.status_code == 200 and fine.json()["error_code"] == ""
