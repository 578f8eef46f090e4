"""A page renders a conversation's latest runs only; "Show earlier" loads the ones before, a page at a time."""
from __future__ import annotations

import json
import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from agent.models import Conversation, Run
from agent.run.conversations import TRANSCRIPT_RUNS
from projects.models import Project
from tasks.services import task_create

pytestmark = pytest.mark.django_db
HOME = json.dumps({"page": "home", "origin": "sidebar"})
PICK = "create task 'Write release notes' P1"


def _ask(client: Client, message: str, page_context: str = HOME) -> None:
    response = client.post("/assistant/request/", {"message": message, "page_context": page_context})
    assert response.status_code == 200, response.content


def _runs(html: str) -> list[str]:
    """The user's bubble of each run, in the order the transcript shows them."""
    return re.findall(r'<div class="bubble bubble-user">([^<]*)</div>', html)


def _earlier(html: str) -> str | None:
    found = re.search(r'<button[^>]*class="btn btn-ghost btn-sm assistant-earlier"[^>]*>([^<]*)</button>', html)
    return found.group(0) if found else None


def _before(button: str) -> str:
    return re.search(r'\?before=([0-9a-f-]{36})', button).group(1)  # type: ignore[union-attr]


@pytest.fixture
def client(alice: User) -> Client:
    browser = Client()
    browser.force_login(alice)
    return browser


def test_a_page_shows_the_latest_runs_and_earlier_ones_load_above_them_in_order(client: Client) -> None:
    asked = [f"show my tasks {n}" for n in range(2 * TRANSCRIPT_RUNS + 3)]
    for message in asked:
        _ask(client, message)
    page = client.get("/").content.decode()
    assert _runs(page) == asked[-TRANSCRIPT_RUNS:]
    button = _earlier(page)
    assert button and f"Show {TRANSCRIPT_RUNS + 3} earlier messages<" in button

    older = client.get(f"/assistant/conversations/earlier/?before={_before(button)}").content.decode()
    assert _runs(older) == asked[3:TRANSCRIPT_RUNS + 3]
    second = _earlier(older)
    assert second and "Show 3 earlier messages<" in second and older.index(second) < older.index("show my tasks 3")

    oldest = client.get(f"/assistant/conversations/earlier/?before={_before(second)}").content.decode()
    assert _runs(oldest) == asked[:3] and _earlier(oldest) is None


def test_a_page_costs_the_same_statements_after_a_long_conversation(client: Client) -> None:
    for n in range(TRANSCRIPT_RUNS + 1):
        _ask(client, f"show my tasks {n}")
    client.get("/")
    with CaptureQueriesContext(connection) as short:
        size = len(client.get("/").content)
    for n in range(2 * TRANSCRIPT_RUNS):
        _ask(client, f"show my blocked tasks {n}")
    with CaptureQueriesContext(connection) as long:
        html = client.get("/").content.decode()
    assert len(short) == len(long), "\n".join(q["sql"] for q in long.captured_queries)
    assert len(_runs(html)) == TRANSCRIPT_RUNS and len(html) < 1.5 * size


def test_the_button_counts_the_earlier_cards_waiting_for_an_answer_and_they_still_decide(
        client: Client, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Retire the old blog")
    _ask(client, f"delete task #{task.pk}")
    run = Run.objects.get(status=Run.Status.NEEDS_CONFIRMATION)
    for n in range(TRANSCRIPT_RUNS):
        _ask(client, f"show my tasks {n}")
    page = client.get("/").content.decode()
    button = _earlier(page)
    assert button and "Show 1 earlier message · 1 waiting for your answer<" in button
    assert f"/assistant/runs/{run.pk}/confirm/" not in page
    older = client.get(f"/assistant/conversations/earlier/?before={_before(button)}").content.decode()
    assert f"/assistant/runs/{run.pk}/confirm/" in older and "Retire the old blog" in older


def test_a_picker_answered_after_its_page_of_runs_shows_closed(client: Client, website: Project,
                                                               mobile: Project) -> None:
    _ask(client, PICK)
    for n in range(TRANSCRIPT_RUNS - 1):
        _ask(client, f"show my tasks {n}")
    _ask(client, PICK, json.dumps({"page": "home", "origin": "sidebar",
                                   "selectedEntity": {"type": "project", "id": website.pk}}))
    button = _earlier(client.get("/").content.decode())
    assert button
    older = client.get(f"/assistant/conversations/earlier/?before={_before(button)}").content.decode()
    [picker] = re.findall(r'<div class="assistant-quick project-picker".*?</div>', older, re.S)
    assert "data-answered" in picker


@pytest.mark.parametrize("before", ["", "not-a-uuid", "1"])
def test_a_malformed_before_is_a_400_naming_it(client: Client, before: str) -> None:
    response = client.get("/assistant/conversations/earlier/", {"before": before})
    assert response.status_code == 400
    assert "“before” must be a run id" in response.content.decode()


def test_another_users_run_or_no_run_is_a_404_that_shows_nothing_of_theirs(client: Client, bob: User) -> None:
    theirs = Conversation.objects.create(user=bob, title="bob's")
    secret = Run.objects.create(user=bob, conversation=theirs, message="bob's secret plan", status="done")
    Run.objects.create(user=bob, conversation=theirs, message="bob's older secret", status="done")
    for run_id in (secret.pk, uuid.uuid4()):
        response = client.get("/assistant/conversations/earlier/", {"before": str(run_id)})
        assert response.status_code == 404 and "secret" not in response.content.decode()
        assert "Those earlier messages were not found" in response.content.decode()


def test_signed_out_it_asks_to_log_in() -> None:
    response = Client().get("/assistant/conversations/earlier/", {"before": str(uuid.uuid4())})
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_footers_name_their_models_from_one_read_however_many_runs_asked_one(
        client: Client, alice: User, settings: object) -> None:
    from agent.models import TraceEvent

    _ask(client, "show my tasks")  # makes the session's conversation
    conversation = Conversation.objects.get(user=alice)

    def asked_a_model(n: int) -> None:
        run = Run.objects.create(user=alice, conversation=conversation, message=f"why {n}?", status="done",
                                 reply=f"Because {n}.", llm_calls=1)
        TraceEvent.objects.create(run=run, seq=1, kind=TraceEvent.Kind.LLM_CALL, name="answer",
                                  payload={"model": f"model-{n % 2}", "provider": "openai"})

    settings.LLM_PROVIDER = "openai"  # type: ignore[attr-defined]
    asked_a_model(0)
    client.get("/")
    with CaptureQueriesContext(connection) as one:
        client.get("/")
    for n in range(1, TRANSCRIPT_RUNS - 1):  # the page's ten runs: no "Show earlier" count in either
        asked_a_model(n)
    with CaptureQueriesContext(connection) as many:
        html = client.get("/").content.decode()
    assert len(one) == len(many), "\n".join(q["sql"] for q in many.captured_queries)
    footers = re.findall(r'<footer class="run-meta">\s*<span>([^<]*) · ', html)
    # The first was answered by the offline model (asked before the setting changed).
    assert footers == ["Offline model"] + [f"model-{n % 2}" for n in range(TRANSCRIPT_RUNS - 1)]
