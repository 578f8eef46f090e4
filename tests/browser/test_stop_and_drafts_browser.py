"""Stop never misleads and typing is never lost, through a slow network (the stop's request held in
transit) and a slow model (the router's answer held): a Stop that reaches the server after the run
changed a task shows what the run did, with Undo, never "Stopped."; one that reaches it before shows the
stop and gives the text back only then; a message typed while an answer is on its way is queued and
sent after it, and a draft typed meanwhile stays in the box."""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect

from agent.models import Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.llm_stub import Completion, LLMStub

from .shell import assert_accessible, open_assistant, shot, wait_until
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def task(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Audit the landing page", assignee=alice)


def _hold_stops(page: Page) -> list[Route]:
    """Hold every stop request in transit (a slow network) until the test lets it through."""
    held: list[Route] = []
    page.route("**/api/assistant/runs/*/stop/", lambda route: held.append(route))
    return held


def _send(page: Page, message: str) -> None:
    page.fill("#assistant-message", message)
    page.press("#assistant-message", "Enter")


def test_a_stop_that_arrives_after_the_change_shows_the_change_with_undo(
        page: Page, live_server: Any, width: str, openai_settings: LLMStub, settings: Any,
        alice: User, task: Task) -> None:
    settings.LLM_TIMEOUT_SECONDS = 30.0
    release_router = openai_settings.push_held(Completion(json.dumps(route_json(
        "crud", operation="update", status="done", scope="selected"))))
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    open_assistant(page)
    held = _hold_stops(page)
    message = "mark this task done"
    _send(page, message)
    pending = page.locator("#assistant-transcript .run-pending")
    expect(pending.locator(".working-words")).to_contain_text("Understanding your request", timeout=10_000)
    page.click("#assistant-stop")

    # The stop is on its way: nothing is claimed yet, and the text is not handed back to be sent twice.
    assert wait_until(page, lambda: bool(held))
    expect(pending.locator(".working-words")).to_contain_text("Stopping")
    expect(page.locator("#assistant-transcript")).not_to_contain_text("Stopped")
    expect(page.locator("#assistant-message")).to_have_value("")
    shot(page, f"stopping-{width}")
    assert_accessible(page)

    # The model answers meanwhile and the run changes the task before the stop reaches the server.
    release_router.set()
    run = Run.objects.get()
    assert wait_until(page, lambda: Run.objects.filter(pk=run.pk, status="done").exists())
    held[0].continue_()

    done = page.locator(f"#run-{run.pk}")
    expect(done).to_have_class("run run-done")
    expect(done.locator(".run-reply")).to_contain_text("done")
    expect(done.locator("button", has_text="Undo")).to_be_visible()
    expect(page.locator("#assistant-transcript")).not_to_contain_text("Stopped")
    expect(page.locator("#assistant-message")).to_have_value("")
    task.refresh_from_db()
    assert task.status == "done"
    shot(page, f"stop-too-late-shows-change-{width}")
    assert_accessible(page)
    page.unroute("**/api/assistant/runs/*/stop/")


def test_a_stop_that_arrives_before_the_change_gives_the_text_back_once_the_server_stopped_it(
        page: Page, live_server: Any, width: str, openai_settings: LLMStub, settings: Any,
        alice: User, task: Task) -> None:
    settings.LLM_TIMEOUT_SECONDS = 30.0
    release_router = openai_settings.push_held(Completion(json.dumps(route_json(
        "crud", operation="update", status="done", scope="selected"))))
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    open_assistant(page)
    held = _hold_stops(page)
    message = "mark this task done"
    _send(page, message)
    expect(page.locator("#assistant-transcript .run-pending .working-words")).to_contain_text(
        "Understanding your request", timeout=10_000)
    page.click("#assistant-stop")
    assert wait_until(page, lambda: bool(held))
    expect(page.locator("#assistant-message")).to_have_value("")  # not before the server has said
    held[0].continue_()

    stopped = page.locator("#assistant-transcript article.run-stopped[id^=run-]")
    expect(stopped).to_contain_text("Stopped, as you asked")
    expect(page.locator("#assistant-message")).to_have_value(message)
    release_router.set()
    run = Run.objects.get()
    assert wait_until(page, lambda: run.events.filter(name="stopped").exists())
    task.refresh_from_db()
    assert task.status != "done" and Run.objects.get().status == "stopped"
    shot(page, f"stop-before-change-{width}")
    assert_accessible(page)
    page.unroute("**/api/assistant/runs/*/stop/")


def test_a_message_typed_while_an_answer_is_on_its_way_is_queued_and_a_draft_stays(
        page: Page, live_server: Any, width: str, openai_settings: LLMStub, settings: Any,
        alice: User, task: Task) -> None:
    settings.LLM_TIMEOUT_SECONDS = 30.0
    release = openai_settings.push_held(Completion(json.dumps(route_json("query", assignee_me=True))))
    openai_settings.push_text("You have one task.")
    openai_settings.push_json(route_json("query", status_filter=["todo"]))
    openai_settings.push_text("One task is still to do.")
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    _send(page, "what am I working on?")
    expect(page.locator("#assistant-transcript .run-pending")).to_have_count(1, timeout=10_000)

    _send(page, "and what is still to do?")
    queued = page.locator("#assistant-transcript .run-queued")
    expect(queued).to_contain_text("and what is still to do?")
    expect(queued).to_contain_text("Queued: sends when the answer above arrives.")
    expect(page.locator("#assistant-message")).to_have_value("")
    page.fill("#assistant-message", "a draft")
    page.press("#assistant-message", "Enter")  # a second one while one waits: it stays, with the reason
    expect(page.locator("#assistant-count")).to_contain_text("already queued")
    expect(page.locator("#assistant-message")).to_have_value("a draft")
    shot(page, f"queued-{width}")
    assert_accessible(page)

    release.set()
    expect(page.locator("#assistant-transcript article.run-done[id^=run-]")).to_have_count(2, timeout=15_000)
    expect(queued).to_have_count(0)
    expect(page.locator("#assistant-transcript article.run-done .bubble-user").nth(1)).to_have_text(
        "and what is still to do?")
    expect(page.locator("#assistant-message")).to_have_value("a draft")
    assert list(Run.objects.order_by("created_at").values_list("message", flat=True)) == [
        "what am I working on?", "and what is still to do?"]
    shot(page, f"queued-sent-{width}")
    assert_accessible(page)


def test_a_queued_message_can_be_taken_back(page: Page, live_server: Any, width: str, openai_settings: LLMStub,
                                            settings: Any, alice: User, task: Task) -> None:
    settings.LLM_TIMEOUT_SECONDS = 30.0
    release = openai_settings.push_held(Completion(json.dumps(route_json("query", assignee_me=True))))
    openai_settings.push_text("You have one task.")
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    _send(page, "what am I working on?")
    expect(page.locator("#assistant-transcript .run-pending")).to_have_count(1, timeout=10_000)
    _send(page, "and what is still to do?")
    page.click("#assistant-transcript [data-cancel-queued]")
    expect(page.locator("#assistant-transcript .run-queued")).to_have_count(0)
    expect(page.locator("#assistant-message")).to_have_value("and what is still to do?")
    release.set()
    expect(page.locator("#assistant-transcript article.run-done[id^=run-]")).to_have_count(1, timeout=15_000)
    page.wait_for_timeout(300)
    assert Run.objects.count() == 1
    expect(page.locator("#assistant-message")).to_have_value("and what is still to do?")
