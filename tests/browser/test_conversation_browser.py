"""Conversations in a real Chromium: reload and navigation keep the transcript, a pending card survives reload,
a new conversation starts empty, the recent list opens an earlier one and "Show earlier" loads older messages."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Conversation
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot, transcript_at_bottom
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser




def send(page: Page, message: str) -> None:
    page.fill("#assistant-message", message)
    page.click(".assistant-form button[type=submit]")


def test_reload_and_navigation_keep_the_transcript(page: Page, live_server: Any, width: str, alice: User,
                                                  website: Project) -> None:
    task_create(actor=alice, project=website, title="Write the release notes", assignee=alice)
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, "show my tasks")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
    send(page, "show my blocked tasks")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(2)

    page.reload()
    open_assistant(page)
    bubbles = page.locator("#assistant-transcript .bubble-user")
    expect(bubbles).to_have_text(["show my tasks", "show my blocked tasks"])
    page.wait_for_function("() => { const t = document.getElementById('assistant-transcript');"
                           " return t.scrollHeight - t.scrollTop - t.clientHeight < 4; }")

    page.goto(f"{live_server.url}/tasks/")
    open_assistant(page)
    expect(bubbles).to_have_text(["show my tasks", "show my blocked tasks"])
    assert transcript_at_bottom(page)
    shot(page, f"conversation-after-navigation-{width}")
    assert_accessible(page)


def test_a_pending_card_survives_a_reload_and_still_works(page: Page, live_server: Any, width: str, alice: User,
                                                         website: Project) -> None:
    doomed = task_create(actor=alice, project=website, title="Retire the old blog")
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, f"delete task #{doomed.pk}")
    expect(page.locator("#assistant .confirm-card")).to_be_focused()

    page.reload()
    expect(page.locator("#assistant-toggle")).to_have_text("Assistant (1 waiting)")
    open_assistant(page)
    card = page.locator("#assistant .confirm-card")
    expect(card).to_contain_text("Retire the old blog")
    shot(page, f"pending-card-after-reload-{width}")
    assert_accessible(page)
    card.locator("button[data-confirm-run]").click()
    expect(page.locator("#assistant-transcript .run-done .run-reply").last).to_contain_text("Deleted")
    expect(page.locator("#assistant-toggle")).to_have_text("Assistant")
    assert not Task.objects.filter(pk=doomed.pk).exists()


def test_a_new_conversation_starts_empty_and_the_recent_list_reopens_the_old_one(
        page: Page, live_server: Any, width: str, alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, "show my tasks")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)

    page.click("#assistant-new-conversation")
    expect(page.locator("#assistant-transcript .run")).to_have_count(0)
    expect(page.locator("#assistant-message")).to_be_focused()
    send(page, "show my blocked tasks")
    expect(page.locator("#assistant-transcript .bubble-user")).to_have_text(["show my blocked tasks"])
    assert Conversation.objects.filter(user=alice).count() == 2

    page.click("#assistant-history summary")
    item = page.locator(".history-item", has_text="show my tasks")
    expect(item).to_be_visible()
    expect(page.locator(".history-item[aria-current=true]")).to_contain_text("show my blocked tasks")
    shot(page, f"recent-conversations-{width}")
    assert_accessible(page)
    item.click()
    expect(page.locator("#assistant-transcript .bubble-user")).to_have_text(["show my tasks"])
    page.reload()
    open_assistant(page)
    expect(page.locator("#assistant-transcript .bubble-user")).to_have_text(["show my tasks"])


def test_another_conversation_cannot_be_opened_while_an_answer_is_on_its_way(
        page: Page, live_server: Any, width: str, alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, "show my tasks")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
    page.click("#assistant-new-conversation")
    send(page, "show my blocked tasks")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
    page.click("#assistant-history summary")
    older = page.locator(".history-item", has_text="show my tasks")
    expect(older).to_be_visible()

    held: list[Any] = []
    page.route("**/assistant/request/", lambda route: held.append(route))
    send(page, "show my overdue tasks")
    page.wait_for_function("() => document.querySelector('#assistant-transcript [data-pending]') !== null")
    older.click(force=True)  # disabled while the answer is out: the click must not switch
    page.wait_for_timeout(300)
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#assistant-transcript .bubble-user")).to_have_text(
        ["show my blocked tasks", "show my overdue tasks"])
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(2)


def test_show_earlier_loads_older_messages_above_without_moving_the_reader(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    from agent.models import Run
    from agent.run.conversations import TRANSCRIPT_RUNS

    doomed = task_create(actor=alice, project=website, title="Retire the old blog")
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, f"delete task #{doomed.pk}")
    expect(page.locator("#assistant .confirm-card")).to_be_visible()
    conversation = Conversation.objects.get(user=alice)
    for n in range(TRANSCRIPT_RUNS + 2):
        Run.objects.create(user=alice, conversation=conversation, message=f"filler question {n}",
                           status=Run.Status.DONE, reply=f"Answer {n}.")

    page.reload()
    expect(page.locator("#assistant-toggle")).to_have_text("Assistant (1 waiting)")  # the card not loaded yet
    open_assistant(page)
    bubbles = page.locator("#assistant-transcript .bubble-user")
    expect(bubbles).to_have_count(TRANSCRIPT_RUNS)
    earlier = page.locator("#assistant-transcript .assistant-earlier")
    expect(earlier).to_have_text("Show 3 earlier messages · 1 waiting for your answer")
    earlier.scroll_into_view_if_needed()
    shot(page, f"transcript-show-earlier-{width}")
    assert_accessible(page)
    earlier.click()
    expect(bubbles).to_have_count(TRANSCRIPT_RUNS + 3)
    expect(bubbles.first).to_have_text(f"delete task #{doomed.pk}")
    expect(bubbles.nth(1)).to_have_text("filler question 0")
    expect(earlier).to_have_count(0)
    expect(page.locator("#assistant-new-pill")).to_be_hidden()  # history, not a new message
    expect(page.locator("#assistant-toggle")).to_have_text("Assistant (1 waiting)")
    shot(page, f"transcript-earlier-loaded-{width}")
    pending = Run.objects.get(status=Run.Status.NEEDS_CONFIRMATION)
    page.locator("#assistant .confirm-card button[data-confirm-run]").click()
    expect(page.locator(f"#run-{pending.pk} .run-reply")).to_contain_text("Deleted")  # decided in place
    assert not Task.objects.filter(pk=doomed.pk).exists()
