"""The reply streams in, the working bubble says what the run is doing, and Stop ends the run on the server:
a real Chromium against the live server and the stub model (SSE chunks through the real SDK), at phone and
desktop sizes."""
from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.llm_stub import Completion, LLMStub

from .shell import assert_accessible, open_assistant, shot, wait_until
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser
PIECES = ["You have ", "**one** ", "open ", "task: ", "the ", "release ", "notes ", "are ", "due ", "soon, ", "so ",
          "start ", "there ", "first."]


@pytest.fixture
def streaming_model(openai_settings: LLMStub, settings: Any, alice: User, website: Project) -> threading.Event:
    """A router answer at once, then prose that streams its first four pieces and waits for the test to
    let the rest follow (returned: the event that does)."""
    settings.LLM_TIMEOUT_SECONDS = 30.0
    settings.LLM_CALL_DEADLINE_SECONDS = 40.0
    task_create(actor=alice, project=website, title="Write the release notes", assignee=alice)
    openai_settings.push_json(route_json("query", assignee_me=True))
    return openai_settings.push_stream_paused(PIECES, after=4, interval=0.05)


def test_the_reply_streams_in_as_text_then_lands_formatted(page: Page, live_server: Any, width: str,
                                                           alice: User, streaming_model: threading.Event) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.fill("#assistant-message", "what am I working on?")
    page.press("#assistant-message", "Enter")

    pending = page.locator("#assistant-transcript .run-pending")
    streamed = pending.locator(".working-text")
    expect(streamed).to_contain_text("You have **one**", timeout=10_000)
    expect(pending.locator(".working-words")).to_contain_text("Writing the answer")
    # Partial text before the end: the answer is still coming and nothing is rendered yet.
    assert "first." not in streamed.inner_text()
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(0)
    expect(streamed.locator("strong")).to_have_count(0)  # streamed as plain text, Markdown untouched
    shot(page, f"streaming-{width}")
    assert_accessible(page)

    streaming_model.set()
    reply = page.locator("#assistant-transcript .run-done .run-reply")
    expect(reply).to_contain_text("start there first.", timeout=15_000)
    expect(reply.locator("strong")).to_have_text("one")  # the server's sanitised Markdown replaced the text
    expect(pending).to_have_count(0)
    shot(page, f"streamed-reply-{width}")
    assert_accessible(page)


def _run_thread_ended(run: Run) -> bool:
    """The run's own thread writes its last trace event ("stopped") as it ends; run_stop writes none."""
    return run.events.filter(name="stopped").exists()


def test_stop_ends_the_run_on_the_server_and_nothing_is_written(page: Page, live_server: Any, width: str,
                                                               openai_settings: LLMStub, settings: Any,
                                                               alice: User, website: Project) -> None:
    # The router's answer is held until the stop has been seen on the server, however busy the machine.
    settings.LLM_TIMEOUT_SECONDS = 30.0
    message = 'create task "Write the notes" in Website Redesign'
    release_router = openai_settings.push_held(Completion(json.dumps(route_json(
        "crud", operation="create", title="Write the notes", project_name="Website Redesign"))))
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.fill("#assistant-message", message)
    page.press("#assistant-message", "Enter")

    working = page.locator("#assistant-transcript .run-pending .working-words")
    # (On PostgreSQL the checkpointer opens first: the stage may come after the "taking a while" hint.)
    expect(working).to_contain_text("Understanding your request", timeout=10_000)
    shot(page, f"working-stage-{width}")
    assert_accessible(page)
    page.click("#assistant-stop")

    stopped = page.locator("#assistant-transcript article.run-stopped[id^=run-]")  # the server's record of it
    expect(stopped).to_contain_text("Stopped, as you asked")
    expect(stopped.locator(".bubble-user")).to_have_text(message)
    expect(stopped.locator(".run-meta")).to_contain_text("Stopped")
    expect(page.locator("#assistant-message")).to_have_value(message)
    expect(page.locator(".assistant-form button[type=submit]")).to_be_visible()
    run = Run.objects.get()
    assert run.status == "stopped"
    assert not _run_thread_ended(run)  # the run is still waiting for the router
    shot(page, f"stopped-on-server-{width}")
    assert_accessible(page)

    # The router's answer arrives after the stop: the run ends there and the task is never created.
    release_router.set()
    assert wait_until(page, lambda: _run_thread_ended(run))
    run.refresh_from_db()
    assert (run.status, run.capability) == ("stopped", "")
    assert not Task.objects.filter(title="Write the notes").exists()
    trace = [(e.kind, e.name, e.payload.get("error", "")) for e in run.events.order_by("seq")]
    assert trace[-1][1] == "stopped", trace
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(0)


def test_a_stop_after_the_run_finished_shows_what_it_did_and_does_not_offer_it_again(
        page: Page, live_server: Any, width: str, openai_settings: LLMStub, alice: User, website: Project) -> None:
    """The answer is held in transit after the server finished (the stream has ended): Stop cannot undo
    the run, so the bubble shows the run as the server recorded it, not "Stopped.", and the message is
    not put back in the input to be sent twice."""
    message = 'create task "Write the notes"'  # read whole (the project is the page's): made at once
    openai_settings.push_json(route_json("crud", operation="create", title="Write the notes"))
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append((route, route.fetch()))  # the server runs the request to its end; the page waits on

    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/")  # the page names the project to create it in
    open_assistant(page)
    page.route("**/assistant/request/", hold)
    page.fill("#assistant-message", message)
    page.press("#assistant-message", "Enter")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held and Task.objects.filter(title="Write the notes").exists()
    assert Run.objects.get().status == "done"
    page.wait_for_timeout(500)  # the stream's end event reaches the page
    expect(page.locator("#assistant-transcript .run-pending")).to_have_count(1)
    page.click("#assistant-stop")

    done = page.locator("#assistant-transcript article.run-done[id^=run-]")
    expect(done).to_contain_text("Write the notes")
    expect(done.locator(".bubble-user")).to_have_text(message)
    expect(page.locator("#assistant-transcript .run-pending")).to_have_count(0)
    expect(page.locator("#assistant-message")).to_have_value("")
    assert Task.objects.filter(title="Write the notes").count() == 1
    shot(page, f"stopped-too-late-{width}")
    assert_accessible(page)
    page.unroute("**/assistant/request/")
