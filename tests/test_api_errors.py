"""Every error under /api/ is the JSON error shape, a race included; "blank" is one rule; help names only
the user's own projects (the last is in agent/capabilities/help/tests/test_help.py)."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.http import Http404
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from agent.models import Conversation, Run
from pm_assistant.http_handlers import ApiErrorMiddleware
from pm_assistant.one_line import one_line
from tests.test_settings import manage, once, production_env

ROUNDS = 50
HOME = {"page": "home", "origin": "sidebar"}


def _at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together by a barrier; each thread closes its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except BaseException as exc:  # a thread's failure is the test's to report
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def _api(user: User) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_a_conversation_deleted_while_a_request_continues_it_is_never_a_500(alice: User) -> None:
    """The request either lands before the delete (its run kept, unlinked) or is a 404 naming the
    conversation, with nothing written; the delete always succeeds."""
    outcomes: set[int | str] = set()
    for _ in range(ROUNDS):
        first = _api(alice).post("/api/assistant/requests/", {"message": "help", "page_context": HOME},
                                 format="json")
        conversation_id = first.json()["conversation_id"]
        runs_before = Run.objects.count()

        asked, deleted = _at_once(
            lambda c=conversation_id: _api(alice).post(
                "/api/assistant/requests/", {"message": "help", "page_context": HOME, "conversation_id": c},
                format="json"),
            lambda c=conversation_id: _api(alice).delete(f"/api/assistant/conversations/{c}/"))

        assert not isinstance(asked, BaseException) and not isinstance(deleted, BaseException), (asked, deleted)
        assert deleted.status_code == 204, deleted.content
        assert asked.status_code in (200, 404), asked.content
        outcomes.add(asked.status_code)
        if asked.status_code == 404 and "deleted" in asked.json()["error"]["message"]:
            outcomes.add("deleted between read and write")
        assert not Conversation.objects.filter(pk=conversation_id).exists()
        if asked.status_code == 404:
            error = asked.json()["error"]
            # Deleted before the request read it ("not found"), or between its read and its write ("deleted").
            assert error["fields"] == {"conversation_id": [error["message"]]}
            assert Run.objects.count() == runs_before
        else:
            assert Run.objects.count() == runs_before + 1
            assert Run.objects.get(pk=asked.json()["run_id"]).conversation_id is None
    assert outcomes <= {200, 404, "deleted between read and write"}


@pytest.mark.django_db(transaction=True)
def test_the_sidebar_request_after_its_conversation_is_deleted_says_so(alice: User) -> None:
    """The sidebar's own request and delete, racing: a bubble or the reply, never a 500; the next message
    starts a new conversation."""
    sent = {"message": "help", "page_context": '{"page": "home", "origin": "sidebar"}'}
    for _ in range(ROUNDS // 5):
        browser = Client(raise_request_exception=False)
        browser.force_login(alice)
        assert browser.post("/assistant/request/", sent).status_code == 200
        conversation = Conversation.objects.filter(user=alice).latest("created_at")

        asked, deleted = _at_once(
            lambda b=browser: b.post("/assistant/request/", sent),
            lambda b=browser, c=conversation.pk: b.post(f"/assistant/conversations/{c}/delete/"))

        assert not isinstance(asked, BaseException) and not isinstance(deleted, BaseException), (asked, deleted)
        assert deleted.status_code == 200 and asked.status_code in (200, 404), asked.content[:300]
        if asked.status_code == 404:
            assert "deleted while your message was on its way" in asked.content.decode() \
                or "not found" in asked.content.decode()
        again = browser.post("/assistant/request/", sent)
        assert again.status_code == 200
        assert Conversation.objects.filter(user=alice).latest("created_at").pk != conversation.pk


@pytest.mark.parametrize("debug", [False, True])
def test_an_uncaught_error_under_api_is_json_with_a_reference_logged_not_sent(
        alice: User, settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        debug: bool) -> None:
    settings.DEBUG = debug

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("secret detail at /srv/app/projects/selectors.py")

    monkeypatch.setattr("projects.api.project_list_for_user", broken)
    with caplog.at_level(logging.ERROR, logger="pm_assistant.errors"):
        response = _api(alice).get("/api/projects/")

    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "server_error" and error["fields"] == {}
    assert error["reference"] in error["message"] and len(error["reference"]) == 12
    assert "secret" not in response.content.decode() and "Traceback" not in response.content.decode()
    logged = [r for r in caplog.records if error["reference"] in r.getMessage()]
    assert logged and logged[0].exc_info and "secret detail" in str(logged[0].exc_info[1])


def test_an_error_in_a_plain_view_under_api_is_json_and_elsewhere_left_to_django() -> None:
    middleware = ApiErrorMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]
    api = middleware.process_exception(RequestFactory().get("/api/tasks/"), KeyError("x"))
    assert api is not None and api.status_code == 500 and b'"server_error"' in api.content
    assert middleware.process_exception(RequestFactory().get("/tasks/"), KeyError("x")) is None
    assert middleware.process_exception(RequestFactory().get("/api/tasks/"), Http404()) is None


@pytest.mark.parametrize("title", ["\u180e", "\u034f", "\u00ad", "\u2800", "\u200b", "\u202e", "\u00a0",
                                   " \u3164\u3000 ", "\u034f\u00ad\u2800"])
def test_a_title_with_nothing_visible_is_blank_everywhere(alice: User, website: Any, title: str) -> None:
    """One rule: the conversation rename, the task title and the project name all refuse it by name."""
    assert one_line(title) == ""
    client = _api(alice)
    run = client.post("/api/assistant/requests/", {"message": "help", "page_context": HOME}, format="json").json()
    renamed = client.patch(f"/api/assistant/conversations/{run['conversation_id']}/", {"title": title},
                           format="json")
    assert renamed.status_code == 400 and "title" in renamed.json()["error"]["fields"]
    task = client.post("/api/tasks/", {"project": website.pk, "title": f"Real{title}"}, format="json")
    assert task.status_code == 201 and task.json()["title"].startswith("Real")
    blank = client.post("/api/tasks/", {"project": website.pk, "title": title}, format="json")
    assert blank.status_code == 400 and "title" in blank.json()["error"]["fields"]
    assert Conversation.objects.get(pk=run["conversation_id"]).title != title


def test_a_visible_title_is_kept() -> None:
    assert one_line(" Fix login\u200b page ") == "Fix login page"
    assert one_line("e\u0301t\u00e9") == "e\u0301t\u00e9" and one_line("任务") == "任务"


def test_the_sidebar_says_when_debug_is_on(alice: User, settings: Any) -> None:
    browser = Client()
    browser.force_login(alice)
    settings.DEBUG = True
    assert "Debug on" in browser.get("/").content.decode()
    settings.DEBUG = False
    assert "Debug on" not in browser.get("/").content.decode()


@once
def test_production_refuses_to_start_with_debug_on() -> None:
    proc = manage("check", **production_env(), DJANGO_DEBUG="1")

    assert proc.returncode != 0
    assert "DJANGO_DEBUG must be off when DJANGO_PRODUCTION=1" in proc.stderr
