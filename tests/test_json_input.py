"""Every JSON entry point answers deep nesting with 400 and an oversize body with 413, never a 500."""
from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.exceptions import ParseError

from agent.models import Run
from pm_assistant.errors import PayloadTooLarge
from pm_assistant.json_input import BoundedJSONParser, JSONInputError, json_depth_exceeds, json_loads_bounded
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

pytestmark = pytest.mark.django_db

BOMB = "[" * 50_000 + "]" * 50_000
PAGE = {"page": "home", "origin": "sidebar"}
WORKBENCH = {"page": "home", "origin": "workbench"}


def nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _post_json(client: Client, url: str, text: str, method: str = "post") -> Any:
    return getattr(client, method)(url, data=text, content_type="application/json")


def _assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body["error"]


@pytest.fixture
def task(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Fix login page", assignee=alice)


def test_depth_is_measured_without_recursion() -> None:
    assert not json_depth_exceeds(nested(32), 33)
    assert json_depth_exceeds(nested(34), 33)
    assert json_depth_exceeds({"a": [{"b": nested(100_000)}]}, 32)
    assert not json_depth_exceeds({"a": 1, "b": [1, 2, {"c": []}]}, 4)
    assert json_depth_exceeds({"a": 1, "b": [1, 2, {"c": []}]}, 3)


@pytest.mark.parametrize("text", [BOMB, '{"a": ' * 50_000 + "1" + "}" * 50_000, json.dumps(nested(40))],
                         ids=["array-bomb", "object-bomb", "over-the-limit"])
def test_loader_refuses_deep_nesting(text: str) -> None:
    with pytest.raises(JSONInputError, match="nested deeper than"):
        json_loads_bounded(text)


def test_loader_refuses_invalid_text_and_bad_utf8() -> None:
    for text in ("{not json", b"\xff\xfe\xfa", "", "NaN", "{\"a\": -Infinity}"):
        with pytest.raises(JSONInputError, match="parse error"):
            json_loads_bounded(text)
    assert json_loads_bounded(json.dumps(nested(31))) == nested(31)


@pytest.mark.parametrize("body", [
    '{"page_context": ' + BOMB + ', "action": "my_overdue"}',
    json.dumps({"page_context": {**PAGE, "filters": {"labels": nested(40)}}, "action": "my_overdue"}),
    '{"message": "hi", "page_context": {"page": "home", "origin": "sidebar", "x": ' + BOMB + "}}",
], ids=["bomb", "over-the-limit", "bomb-in-a-key"])
def test_assistant_request_with_deep_nesting_is_400(alice: User, body: str) -> None:
    error = _assert_error(_post_json(_client(alice), "/api/assistant/requests/", body), 400, "malformed_request")
    assert "nested deeper than 32" in error["message"]
    assert not Run.objects.exists()


def test_task_create_and_update_with_nested_labels_are_400(alice: User, website: Project, task: Task) -> None:
    client = _client(alice)
    create = f'{{"project": {website.pk}, "title": "x", "labels": {BOMB}}}'
    _assert_error(_post_json(client, "/api/tasks/", create), 400, "malformed_request")
    update = f'{{"labels": {BOMB}}}'
    _assert_error(_post_json(client, f"/api/tasks/{task.pk}/", update, "patch"), 400, "malformed_request")
    assert Task.objects.count() == 1 and not Task.objects.get(pk=task.pk).labels.exists()


def test_confirm_with_nested_decision_is_400(alice: User) -> None:
    run = Run.objects.create(user=alice, message="delete it", page_context=PAGE)
    response = _post_json(_client(alice), f"/api/assistant/runs/{run.pk}/confirm/", '{"decision": ' + BOMB + "}")
    _assert_error(response, 400, "malformed_request")


def test_sidebar_page_context_bomb_is_400_in_words(alice: User) -> None:
    for raw in (BOMB, json.dumps({**PAGE, "filters": nested(40)}), "{not json"):
        response = _client(alice).post("/assistant/request/", {"message": "hello", "page_context": raw})
        assert response.status_code == 400
        html = response.content.decode()
        assert "Reload the page and try again" in html and "page_context" not in html
    assert not Run.objects.exists()


def test_body_over_the_limit_is_413_everywhere(settings: Any, alice: User, task: Task) -> None:
    settings.REQUEST_BODY_MAX_BYTES = 2000
    client = _client(alice)
    big = json.dumps({"message": "x" * 3000, "page_context": PAGE})
    error = _assert_error(_post_json(client, "/api/assistant/requests/", big), 413, "too_large")
    assert error["fields"] == {"body": [error["message"]]} and "2000 bytes" in error["message"]
    _assert_error(_post_json(client, f"/api/tasks/{task.pk}/", json.dumps({"description": "d" * 3000}), "patch"),
                  413, "too_large")
    sidebar = client.post("/assistant/request/", {"message": "m" * 3000, "page_context": json.dumps(PAGE)})
    _assert_error(sidebar, 413, "too_large")
    assert not Run.objects.exists() and Task.objects.get(pk=task.pk).description == ""
    # Just under the limit is still served.
    assert _post_json(client, "/api/assistant/requests/", json.dumps({"action": "my_overdue",
                                                                       "page_context": WORKBENCH})).status_code == 200


def test_parser_bounds_a_stream_longer_than_declared(settings: Any) -> None:
    settings.REQUEST_BODY_MAX_BYTES = 100
    parser = BoundedJSONParser()
    with pytest.raises(PayloadTooLarge):
        parser.parse(io.BytesIO(b'{"a": "' + b"x" * 200 + b'"}'))
    with pytest.raises(ParseError, match="nested deeper"):
        parser.parse(io.BytesIO(json.dumps(nested(40)).encode()))
    assert parser.parse(io.BytesIO(b'{"a": [1]}')) == {"a": [1]}
