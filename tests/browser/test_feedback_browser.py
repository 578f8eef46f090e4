"""Feedback while the assistant works, in a real Chromium at phone and desktop sizes: the echo and working
bubble with a slowed stub model, one request at a time, Stop, Enter to send, the "/" shortcut, the skip link
and focus back on the row."""
from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Run, TraceEvent
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.llm_stub import Completion, LLMStub

from .shell import assert_accessible, focused, open_assistant, shot, wait_until
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def slow_model(openai_settings: LLMStub, settings: Any) -> threading.Event:
    """A model whose routing answer waits until the test sets the returned event, then a one-line
    explanation: the test looks at the page while the request is surely still out."""
    settings.LLM_TIMEOUT_SECONDS = 30.0
    release = openai_settings.push_held(Completion(json.dumps(route_json("query", assignee_me=True))))
    openai_settings.push_text("You have one open task.")
    return release



def test_the_message_is_echoed_with_a_working_bubble_and_nothing_is_sent_twice(
        page: Page, live_server: Any, width: str, alice: User, website: Project, slow_model: threading.Event) -> None:
    task_create(actor=alice, project=website, title="Write the release notes", assignee=alice)
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.fill("#assistant-message", "what am I working on?")
    page.press("#assistant-message", "Enter")
    pending = page.locator("#assistant-transcript .run-pending")
    expect(pending.locator(".bubble-user")).to_have_text("what am I working on?")
    # "Working…" at once, then what the run is doing (test_stream_browser.py follows the stages).
    expect(pending.locator(".bubble-working")).to_contain_text(re.compile("Working|Understanding your request"))
    expect(page.locator("#assistant-message")).to_have_value("")
    expect(page.locator("#assistant-stop")).to_be_visible()
    expect(page.locator(".assistant-form button[type=submit]")).to_be_hidden()
    expect(page.locator("#assistant [data-assistant-action]").first).to_be_disabled()
    # A quick button while the first request is out does nothing (the model still holds the first); a
    # second Enter queues the message, visibly, and taking it back leaves it in the input, unsent.
    page.locator("#assistant [data-assistant-action]").first.click(force=True)
    page.fill("#assistant-message", "again")
    page.press("#assistant-message", "Enter")
    expect(page.locator("#assistant-transcript .run-queued")).to_contain_text("again")
    shot(page, f"working-bubble-{width}")
    assert_accessible(page)
    page.click("#assistant-transcript [data-cancel-queued]")
    expect(page.locator("#assistant-message")).to_have_value("again")

    slow_model.set()
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1, timeout=10_000)
    expect(pending).to_have_count(0)
    expect(page.locator("#assistant-transcript .run-done .run-reply")).to_contain_text("one open task")
    expect(page.locator("#assistant-stop")).to_be_hidden()
    expect(page.locator("#assistant [data-assistant-action]").first).to_be_enabled()
    assert Run.objects.count() == 1


def test_stop_abandons_a_typed_request_and_gives_the_text_back(
        page: Page, live_server: Any, width: str, alice: User, slow_model: threading.Event) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.fill("#assistant-message", "what am I working on?")
    page.press("#assistant-message", "Enter")
    expect(page.locator("#assistant-stop")).to_be_visible()
    page.click("#assistant-stop")
    stopped = page.locator("#assistant-transcript .run-stopped")
    expect(stopped).to_contain_text("Stopped")
    expect(stopped).to_have_count(1)
    expect(page.locator("#assistant-message")).to_have_value("what am I working on?")
    expect(page.locator("#assistant-message")).to_be_focused()
    expect(page.locator(".assistant-form button[type=submit]")).to_be_visible()
    shot(page, f"stopped-{width}")
    assert_accessible(page)
    # The abandoned answer never lands in this page, even once the server has finished it.
    slow_model.set()
    assert wait_until(page, _run_thread_ended)
    page.wait_for_timeout(500)  # anything the server still sent reaches the page
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(0)


def _run_thread_ended() -> bool:
    """The run's thread has ended: it stored an answer, or wrote the "stopped" event it writes as it ends."""
    return (Run.objects.exclude(status__in=[Run.Status.RUNNING, Run.Status.STOPPED]).exists()
            or TraceEvent.objects.filter(name="stopped").exists())


def test_shift_enter_makes_a_new_line_and_enter_sends(page: Page, live_server: Any, width: str,
                                                      alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    box = page.locator("#assistant-message")
    box.click()
    page.keyboard.type("show my tasks")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("please")
    expect(box).to_have_value("show my tasks\nplease")
    assert Run.objects.count() == 0
    page.keyboard.press("Enter")
    expect(page.locator("#assistant-transcript .run")).to_have_count(1)
    expect(page.locator("#assistant-transcript .bubble-user")).to_have_text("show my tasks\nplease")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)


def test_slash_opens_the_assistant_and_focuses_the_input(page: Page, live_server: Any, width: str,
                                                          alice: User) -> None:
    log_in(page, live_server.url, "alice", "/tasks/")
    if page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    expect(page.locator("#assistant")).to_be_hidden()
    page.locator("h1").click()
    page.keyboard.press("/")
    expect(page.locator("#assistant-message")).to_be_focused()
    expect(page.locator("#assistant-message")).to_have_value("")
    assert "press / " in (page.get_attribute("#assistant-message", "placeholder") or "")
    shot(page, f"slash-opens-assistant-{width}")
    assert_accessible(page)
    # Typed inside a field, "/" is just a character.
    page.keyboard.type("a/b")
    expect(page.locator("#assistant-message")).to_have_value("a/b")


def test_the_skip_link_reaches_the_assistant_early_in_tab_order(page: Page, live_server: Any, width: str,
                                                                alice: User) -> None:
    log_in(page, live_server.url, "alice", "/tasks/")
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link").first).to_be_focused()
    page.keyboard.press("Tab")
    skip = page.locator(".skip-assistant")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    shot(page, f"skip-to-assistant-{width}")
    page.keyboard.press("Enter")
    expect(page.locator("#assistant")).to_be_visible()
    expect(page.locator("#assistant-message")).to_be_focused()


def test_after_a_row_action_focus_returns_to_the_row(page: Page, live_server: Any, width: str, alice: User,
                                                    website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship the footer")
    log_in(page, live_server.url, "alice", "/tasks/")
    page.locator(f"tr[data-entity-id='{task.pk}'] [data-assistant-action=mark_done]").click()
    expect(page.locator(f"tr[data-entity-id='{task.pk}'] .badge").first).to_have_text("Done")
    page.wait_for_function(f"() => document.activeElement.closest(\"[data-entity-id='{task.pk}']\")")
    assert focused(page)["row"] == str(task.pk)
    assert Task.objects.get(pk=task.pk).status == "done"
