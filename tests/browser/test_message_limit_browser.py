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
    page.click(".assistant-form button[type=submit]")
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
