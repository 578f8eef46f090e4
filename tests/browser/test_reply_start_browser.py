"""A long reply opens at its start in a real Chromium: the summary sentence and the first items are in view,
not the end of the list; a short one still ends the transcript."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.services import task_create

from .shell import open_assistant, shot, transcript_at_bottom
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def in_view(page: Page, selector: str) -> bool:
    """Tell whether the element's top lies inside the transcript's visible part."""
    return page.evaluate("""(selector) => {
        const box = document.getElementById('assistant-transcript').getBoundingClientRect();
        const el = document.querySelector(selector).getBoundingClientRect();
        return el.top >= box.top && el.top < box.bottom; }""", selector)


def test_a_long_list_answer_opens_at_its_summary_and_first_items(page: Page, live_server: Any, width: str,
                                                               alice: User, website: Project) -> None:
    late = timezone.localdate() - timedelta(days=3)
    for n in range(12):
        task_create(actor=alice, project=website, assignee=alice, due_date=late,
                    title=f"Overdue piece of work number {n} with a title long enough to wrap on a phone")
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.click("#assistant .assistant-quick [data-assistant-action=my_overdue]")
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_contain_text("12 overdue tasks")
    page.wait_for_timeout(200)  # let any late scrolling happen before measuring
    height = page.evaluate("() => document.getElementById('assistant-transcript').clientHeight")
    assert run.bounding_box()["height"] > height  # type: ignore[index]  # the reply does not fit
    assert in_view(page, "#assistant-transcript .run-done:last-of-type .run-reply")
    assert in_view(page, "#assistant-transcript .run-done:last-of-type .run-items li:first-child")
    assert not transcript_at_bottom(page)
    shot(page, f"long-reply-start-{width}")

    # The reader scrolls on; a short reply after it ends the transcript as before.
    page.fill("#assistant-message", "show my blocked tasks")
    page.click(".assistant-form button[type=submit]")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(2)
    page.wait_for_function("() => { const t = document.getElementById('assistant-transcript');"
                           " return t.scrollHeight - t.scrollTop - t.clientHeight < 4; }")
