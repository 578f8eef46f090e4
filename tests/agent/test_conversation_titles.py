"""A conversation's name: what its first request was about (the task a button acted on, a short summary
of a typed message, no model), numbered the same in every list, and the whole history paged with a count."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agent.models import Conversation, Run
from agent.run.conversations import RECENT_CONVERSATIONS, conversation_page_for_user
from agent.run.service import run_request
from agent.words.titles import TITLE_SUMMARY_MAX, typed_summary
from projects.models import Project
from tasks.services import task_create
from tests.clients import api_client


@pytest.mark.parametrize(("message", "title"), [
    ("please show my blocked tasks", "show my blocked tasks"),
    ("Can you mark WEB-18 done please.", "mark WEB-18 done"),
    ("hey, could you help me plan the release", "plan the release"),
    ("请帮我列出本周到期的任务", "列出本周到期的任务"),
    ("what is overdue?", "what is overdue?"),
    ("please", "please"),  # nothing but a lead-in: kept as typed
])
def test_a_typed_request_is_summarised_without_a_model(message: str, title: str) -> None:
    assert typed_summary(message) == title


def test_a_long_request_is_cut_at_a_word() -> None:
    title = typed_summary("break down the landing page audit into steps for the whole team next week")
    assert title == "break down the landing page audit into steps…"
    assert len(title) <= TITLE_SUMMARY_MAX and typed_summary("x " * 200).endswith("…")


def test_a_quick_button_names_the_task_it_acted_on(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Audit the landing page", assignee=alice)
    page = {"page": "task_detail", "origin": "quick_button", "routeParams": {"taskId": task.pk},
            "selectedEntity": {"type": "task", "id": task.pk}}
    run = run_request(user=alice, page_context=page, action="mark_done", conversation=Conversation(user=alice))
    assert run.conversation is not None
    assert run.conversation.title == f"Mark done: {task.key} Audit the landing page"


def _conversations(user: User, count: int, title: str = "") -> list[Conversation]:
    made = []
    for n in range(count):
        conversation = Conversation.objects.create(user=user, title=title or f"question {n}")
        Run.objects.create(user=user, conversation=conversation, message=f"question {n}", status="done")
        made.append(conversation)
    return made


def test_the_list_pages_through_every_conversation_with_a_count(alice: User) -> None:
    _conversations(alice, RECENT_CONVERSATIONS + 3)
    Conversation.objects.create(user=alice)  # no runs: not listed, not counted
    first, total = conversation_page_for_user(user=alice)
    older, again = conversation_page_for_user(user=alice, offset=len(first))
    assert (len(first), len(older), total, again) == (RECENT_CONVERSATIONS, 3, 13, 13)
    assert not {c.pk for c in first} & {c.pk for c in older}

    body = api_client(alice).get("/api/assistant/conversations/", {"offset": RECENT_CONVERSATIONS}).json()
    assert (len(body["results"]), body["count"], body["next_offset"]) == (3, 13, None)
    assert api_client(alice).get("/api/assistant/conversations/").json()["next_offset"] == RECENT_CONVERSATIONS

    browser = Client()
    browser.force_login(alice)
    html = browser.get("/assistant/conversations/").content.decode()
    assert "13 conversations" in html and "Show older (3 more)" in html
    rows = browser.get("/assistant/conversations/", {"offset": RECENT_CONVERSATIONS}).content.decode()
    assert rows.count('class="history-item"') == 3 and "Show older" not in rows


def test_a_conversation_has_one_name_in_the_list_and_in_a_search(alice: User) -> None:
    older, newer = _conversations(alice, 2, title="My overdue tasks")
    Run.objects.filter(conversation=newer).update(message="which are overdue in Website?")
    listed = {c.pk: c.label for c in conversation_page_for_user(user=alice)[0]}  # type: ignore[attr-defined]
    found = {c.pk: c.label for c in conversation_page_for_user(user=alice, search="Website")[0]}  # type: ignore[attr-defined]
    assert listed == {older.pk: "My overdue tasks (1)", newer.pk: "My overdue tasks (2)"}
    assert found == {newer.pk: "My overdue tasks (2)"}


def test_an_offset_that_is_not_a_number_is_refused_naming_it(alice: User) -> None:
    response: Any = api_client(alice).get("/api/assistant/conversations/", {"offset": "soon"})
    assert response.status_code == 400 and list(response.json()["error"]["fields"]) == ["offset"]
