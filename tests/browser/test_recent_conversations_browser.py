"""The Recent conversations list in a real Chromium: it fits the panel, tells apart conversations of the same
title, says "just now", and renames, deletes and searches the user's own conversations."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Conversation, Run

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def overdue_twice(page: Page) -> None:
    """Press My overdue tasks in two conversations, so two have the same title."""
    for n in (1, 2):
        page.click("#assistant .assistant-quick [data-assistant-action=my_overdue]")
        expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
        if n == 1:
            page.click("#assistant-new-conversation")
            expect(page.locator("#assistant-transcript .run")).to_have_count(0)


def open_recent(page: Page) -> None:
    page.click("#assistant-history summary")
    expect(page.locator("#assistant-history-results .history-item").first).to_be_visible()


def test_the_recent_list_fits_the_panel_and_tells_same_titles_apart(page: Page, live_server: Any, width: str,
                                                                    alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    overdue_twice(page)
    open_recent(page)
    titles = page.locator("#assistant-history-results .history-title")
    expect(titles).to_have_text(["My overdue tasks (2)", "My overdue tasks (1)"])
    metas = page.locator("#assistant-history-results .history-meta")
    expect(metas).to_have_text(["1 message · just now", "1 message · just now"])
    panel = page.locator("#assistant").bounding_box()
    assert panel is not None
    for box in (page.locator(".assistant-history-list").bounding_box(),
                *(item.bounding_box() for item in page.locator(".history-item").all())):
        assert box is not None
        # Nothing of the list lies outside the assistant (it was cut off on the left at both widths).
        assert box["x"] >= panel["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"] + 0.5, (box, panel)
    # Each meta line is whole: its text is not wider than its box.
    assert page.evaluate("() => [...document.querySelectorAll('.history-meta')]"
                         ".every(m => m.scrollWidth <= m.clientWidth + 1)")
    shot(page, f"recent-list-{width}")
    assert_accessible(page)


def test_a_conversation_is_renamed_searched_and_deleted_from_the_recent_list(page: Page, live_server: Any,
                                                                           width: str, alice: User) -> None:
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    overdue_twice(page)
    current = Conversation.objects.filter(user=alice).order_by("-created_at")[0]
    older = Conversation.objects.filter(user=alice).order_by("created_at")[0]
    open_recent(page)

    page.click(f"#assistant-history-results .history-more:has(#rename-{older.pk}) summary")
    page.fill(f"#rename-{older.pk}", "Launch week overdue")
    page.click(f"#assistant-history-results .history-more:has(#rename-{older.pk}) button[type=submit]")
    expect(page.locator(".history-notice")).to_have_text("Renamed to “Launch week overdue”.")
    expect(page.locator("#assistant-history-results .history-title")).to_have_text(
        ["My overdue tasks", "Launch week overdue"])
    older.refresh_from_db()
    assert older.title == "Launch week overdue"

    # A blank title is refused, naming the field; nothing changes.
    page.click(f"#assistant-history-results .history-more:has(#rename-{older.pk}) summary")
    page.evaluate(f"() => document.getElementById('rename-{older.pk}').removeAttribute('required')")
    page.fill(f"#rename-{older.pk}", "   ")
    page.click(f"#assistant-history-results .history-more:has(#rename-{older.pk}) button[type=submit]")
    # Said in the row it was typed in, its menu left open, not above the list.
    row = page.locator(f"#assistant-history-results .history-row:has(#rename-{older.pk})")
    expect(row.locator(".history-more")).to_have_attribute("open", "")
    expect(row.locator(".history-error")).to_contain_text("title: This field may not be blank.")
    expect(page.locator(f"#rename-{older.pk}")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".history-error")).to_have_count(1)
    expect(page.locator("#assistant-history-results > .history-error")).to_have_count(0)
    shot(page, f"recent-rename-refused-{width}")
    assert_accessible(page)
    older.refresh_from_db()
    assert older.title == "Launch week overdue"

    page.fill("#assistant-history-search", "launch")
    expect(page.locator("#assistant-history-results .history-title")).to_have_text(["Launch week overdue"])
    shot(page, f"recent-search-{width}")
    assert_accessible(page)
    page.fill("#assistant-history-search", "nothing like this")
    expect(page.locator("#assistant-history-results .history-empty")).to_have_text(
        "No conversation mentions “nothing like this”.")
    page.fill("#assistant-history-search", "")
    expect(page.locator("#assistant-history-results .history-title")).to_have_count(2)

    # Deleting the current conversation empties the transcript; its run is kept, unlinked.
    menu = page.locator(f"#assistant-history-results .history-more:has(#rename-{current.pk})")
    menu.locator("summary.history-more-button").click()
    # The first Delete only asks: nothing is deleted until the question's own button is pressed.
    expect(menu.locator(".history-delete")).to_be_hidden()
    menu.locator(".history-delete-open").click()
    expect(menu.locator(".history-delete-question")).to_have_text(
        "Delete “My overdue tasks”? It leaves this list; its answers' traces are kept.")
    assert_accessible(page)
    shot(page, f"recent-delete-ask-{width}")
    assert Conversation.objects.filter(pk=current.pk).exists()
    menu.locator(".history-delete").click()
    # The new, empty conversation lands first; the list stays open on its notice after it.
    expect(page.locator("#assistant-transcript .run")).to_have_count(0)
    expect(page.locator("#assistant-transcript")).to_contain_text("Ask about your tasks")
    expect(page.locator(".history-notice")).to_be_visible()
    expect(page.locator(".history-notice")).to_have_text("Deleted “My overdue tasks”.")
    expect(page.locator("#assistant-history-results .history-title")).to_have_text(["Launch week overdue"])
    assert not Conversation.objects.filter(pk=current.pk).exists()
    assert Run.objects.filter(user=alice, conversation__isnull=True).count() == 1
    assert_accessible(page)
