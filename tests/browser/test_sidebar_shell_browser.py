"""The assistant shell at phone and desktop widths: replies that need the user, toasts, the newest reply in view."""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.llm_stub import Completion, LLMStub

from .shell import assert_accessible, focused, shot, transcript_at_bottom
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser



@pytest.fixture
def three_tasks(alice: User, website: Project) -> list[Task]:
    return [task_create(actor=alice, project=website, title=title)
            for title in ("Draft the launch email", "Review the pricing page", "Archive old banners")]


def collapse(page: Page) -> None:
    """Close the assistant as a user would, wherever it starts open."""
    if page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    expect(page.locator("#assistant")).to_be_hidden()


def test_a_row_delete_with_the_assistant_closed_opens_it_on_the_card(
        page: Page, live_server: Any, width: str, three_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice", "/tasks/")
    collapse(page)
    middle = three_tasks[1]
    page.locator(f"tr[data-entity-id='{middle.pk}'] [data-assistant-action=delete_task]").click()
    card = page.locator("#assistant .confirm-card")
    expect(card).to_be_visible()
    expect(card).to_be_focused()
    expect(card).to_contain_text("Review the pricing page")
    shot(page, f"row-delete-card-{width}")
    assert_accessible(page)

    card.locator("button:has-text('Reject')").click()
    # The assistant was opened only for the card: the page comes back, the reply as a toast, focus on the row.
    expect(page.locator("#assistant")).to_be_hidden()
    expect(page.locator(".toast-reply")).to_be_visible()
    expect(page.locator(f"tr[data-entity-id='{middle.pk}'] [data-assistant-action=delete_task]")).to_be_focused()
    assert Task.objects.filter(pk=middle.pk).exists()
    shot(page, f"row-delete-rejected-toast-{width}")
    assert_accessible(page)


def test_an_approved_row_delete_returns_focus_to_the_neighbouring_row(
        page: Page, live_server: Any, width: str, three_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice", "/tasks/")
    collapse(page)
    doomed = three_tasks[1]
    page.locator(f"tr[data-entity-id='{doomed.pk}'] [data-assistant-action=delete_task]").click()
    page.locator("#assistant .confirm-card button[data-confirm-run]").click()
    expect(page.locator(f"tr[data-entity-id='{doomed.pk}']")).to_have_count(0)
    expect(page.locator(".toast-reply")).to_contain_text("Deleted")
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('[data-entity-id]')")
    assert focused(page)["row"] in {str(t.pk) for t in three_tasks if t.pk != doomed.pk}
    assert not Task.objects.filter(pk=doomed.pk).exists()


def test_a_row_done_with_the_assistant_closed_answers_in_a_toast_that_opens_it(
        page: Page, live_server: Any, width: str, three_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice", "/tasks/?status=todo")
    collapse(page)
    done = three_tasks[0]
    page.locator(f"tr[data-entity-id='{done.pk}'] [data-assistant-action=mark_done]").click()
    toast = page.locator(".toast-reply")
    expect(toast).to_be_visible()
    expect(page.locator(f"tr[data-entity-id='{done.pk}']")).to_have_count(0)
    expect(page.locator("#assistant")).to_be_hidden()
    shot(page, f"row-done-toast-{width}")
    assert_accessible(page)
    toast.locator("a:has-text('Open assistant')").click()
    expect(page.locator("#assistant")).to_be_visible()
    expect(page.locator("#assistant-transcript .run-done").last).to_be_in_viewport()
    shot(page, f"assistant-opened-from-toast-{width}")
    assert_accessible(page)
    done.refresh_from_db()
    assert done.status == "done"


def test_new_replies_scroll_into_view_unless_the_user_scrolled_up(
        page: Page, live_server: Any, width: str, three_tasks: list[Task], openai_settings: LLMStub,
        settings: Any) -> None:
    settings.LLM_TIMEOUT_SECONDS = 5.0
    route = Completion(json.dumps(route_json("query", assignee_me=False)))
    for _ in range(7):
        openai_settings.push(route).push_text("Here are the tasks you can see.")
    # The eighth answer waits: the user scrolls up to read while it is on its way.
    release = openai_settings.push_held(route)
    openai_settings.push_text("Here they are again.")
    log_in(page, live_server.url, "alice", "/tasks/")
    if not page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    transcript = page.locator("#assistant-transcript")
    for n in range(1, 8):
        page.fill("#assistant-message", "show the tasks")
        page.press("#assistant-message", "Enter")
        expect(transcript.locator(".run-done")).to_have_count(n)
        page.wait_for_function("() => { const t = document.getElementById('assistant-transcript');"
                               " return t.scrollHeight - t.scrollTop - t.clientHeight < 4; }")
    assert page.evaluate("() => { const t = document.getElementById('assistant-transcript');"
                         " return t.scrollHeight > t.clientHeight; }"), "the transcript should overflow by now"
    shot(page, f"transcript-newest-in-view-{width}")

    page.fill("#assistant-message", "show the tasks")
    page.press("#assistant-message", "Enter")
    expect(transcript.locator(".run-pending")).to_have_count(1)
    assert transcript_at_bottom(page), "the user's own message is always shown"
    transcript.evaluate("t => { t.scrollTop = 0; t.dispatchEvent(new Event('scroll')); }")
    release.set()
    expect(transcript.locator(".run-done")).to_have_count(8, timeout=10_000)
    pill = page.locator("#assistant-new-pill")
    expect(pill).to_be_visible()
    assert transcript.evaluate("t => t.scrollTop") < 50, "reading the top, the user is not moved"
    shot(page, f"transcript-new-message-pill-{width}")
    assert_accessible(page)
    pill.click()
    expect(pill).to_be_hidden()
    assert transcript_at_bottom(page)
    expect(transcript.locator(".run-done").last).to_be_in_viewport()


def test_a_card_answers_a_click_the_moment_it_lands(
        page: Page, live_server: Any, width: str, three_tasks: list[Task]) -> None:
    """A card's buttons work as soon as the card is on the page, not after htmx's settle pause."""
    log_in(page, live_server.url, "alice", "/tasks/")
    collapse(page)
    # Click Approve in the same turn of the event loop that inserted the card.
    page.evaluate("""() => new MutationObserver((records, observer) => {
        const button = document.querySelector('#assistant .confirm-card [data-confirm-run]');
        if (button) { observer.disconnect(); button.click(); }
    }).observe(document.getElementById('assistant-transcript'), { childList: true, subtree: true })""")
    doomed = three_tasks[2]
    page.locator(f"tr[data-entity-id='{doomed.pk}'] [data-assistant-action=delete_task]").click()
    expect(page.locator(f"tr[data-entity-id='{doomed.pk}']")).to_have_count(0)
    assert not Task.objects.filter(pk=doomed.pk).exists()
