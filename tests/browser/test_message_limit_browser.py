"""The sidebar's message limit and the typed text kept on every kind of failure, in a real Chromium."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Run
from pm_assistant.vocabulary import MESSAGE_MAX_CHARS

from .shell import VIEWPORTS, assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser




def test_a_message_over_the_limit_is_refused_before_sending_and_kept(page: Page, live_server: Any, width: str,
                                                                     alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    box, count = page.locator("#assistant-message"), page.locator("#assistant-count")
    expect(count).to_be_hidden()
    box.fill("show my tasks")
    expect(count).to_have_text(f"13 / {MESSAGE_MAX_CHARS}")
    too_long = "x" * (MESSAGE_MAX_CHARS + 5)
    box.fill(too_long)
    expect(count).to_contain_text("5 too many")
    expect(box).to_have_attribute("aria-invalid", "true")
    # Send is marked unavailable; a click on it anyway sends nothing.
    page.click(".assistant-form button[type=submit]", force=True)
    box.press("Enter")
    expect(box).to_have_value(too_long)
    expect(page.locator("#assistant-transcript .run")).to_have_count(0)
    assert not Run.objects.exists()
    assert_accessible(page)
    shot(page, f"message-over-limit-{width}")

    box.fill("x" * MESSAGE_MAX_CHARS)  # exactly the limit is fine
    expect(box).not_to_have_attribute("aria-invalid", "true")
    page.click(".assistant-form button[type=submit]")
    expect(page.locator("#assistant-transcript .run-done, #assistant-transcript .run-needs_clarification")) \
        .to_have_count(1)
    expect(box).to_have_value("")
    assert Run.objects.count() == 1


@pytest.mark.parametrize("failure", ["refused", "server_error", "network"])
def test_the_typed_text_is_kept_when_sending_fails(page: Page, live_server: Any, alice: User, failure: str) -> None:
    page.set_viewport_size(VIEWPORTS["desktop"])
    log_in(page, live_server.url, "alice")
    text = "show my blocked tasks"
    if failure == "refused":
        text = "show my \x07 tasks"  # a control character: the server answers 400
    elif failure == "server_error":
        page.route("**/assistant/request/", lambda route: route.fulfill(status=500, body="boom"))
    else:
        page.route("**/assistant/request/", lambda route: route.abort())
    box = page.locator("#assistant-message")
    box.fill(text)
    page.click(".assistant-form button[type=submit]")
    if failure == "refused":
        expect(page.locator("#assistant-transcript .bubble-error, #assistant-transcript [role=alert]").last) \
            .to_contain_text("control character")
    else:
        expect(page.locator("#assistant-transcript [data-pending]")).to_have_count(0)
    expect(box).to_have_value(text)


def test_over_the_limit_send_is_marked_unavailable_and_back_when_shortened(page: Page, live_server: Any,
                                                                         width: str, alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send = page.locator(".assistant-form button[type=submit]")
    page.fill("#assistant-message", "x" * (MESSAGE_MAX_CHARS + 1))
    expect(send).to_have_attribute("aria-disabled", "true")
    assert float(send.evaluate("b => getComputedStyle(b).opacity")) < 1
    shot(page, f"send-unavailable-{width}")
    assert_accessible(page)
    page.fill("#assistant-message", "x" * MESSAGE_MAX_CHARS)
    expect(send).not_to_have_attribute("aria-disabled", "true")
    assert float(send.evaluate("b => getComputedStyle(b).opacity")) == 1


@pytest.mark.parametrize("how", ["click", "enter"])
def test_an_empty_or_blank_message_says_why_nothing_was_sent(page: Page, live_server: Any, width: str,
                                                            alice: User, how: str) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    box, count = page.locator("#assistant-message"), page.locator("#assistant-count")
    for text in ("", "   \n  "):
        box.fill(text)
        if how == "click":
            page.click(".assistant-form button[type=submit]")
        else:
            box.press("Enter")
        expect(count).to_be_visible()
        expect(count).to_have_text("Type a message first: Send needs some text.")
        expect(box).to_have_attribute("aria-invalid", "true")
        expect(box).to_be_focused()
    expect(page.locator("#assistant-transcript .run")).to_have_count(0)
    assert not Run.objects.exists()
    assert_accessible(page)
    box.press_sequentially("hi")
    expect(count).to_have_text(f"2 / {MESSAGE_MAX_CHARS}")
    expect(box).not_to_have_attribute("aria-invalid", "true")


def test_the_counter_follows_the_input_while_a_reply_is_pending(page: Page, live_server: Any, width: str,
                                                                alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    count = page.locator("#assistant-count")
    page.fill("#assistant-message", "show my tasks")
    expect(count).to_have_text(f"13 / {MESSAGE_MAX_CHARS}")
    held: list[Any] = []
    page.route("**/assistant/request/", lambda route: held.append(route))
    page.click(".assistant-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#assistant-transcript [data-pending]') !== null")
    # The input is empty while the answer is on its way: so is the counter (it said 13 / 2000).
    expect(page.locator("#assistant-message")).to_have_value("")
    expect(count).to_be_hidden()
    page.fill("#assistant-message", "next one")
    expect(count).to_have_text(f"8 / {MESSAGE_MAX_CHARS}")
    held[0].continue_()
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
