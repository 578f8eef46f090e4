"""The bulk card in a real Chromium at both sizes: every task it would change is listed with its key, the
first few at once and the others behind an "and N more" that opens in place."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.tools.runner import SHOWN_ROWS
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def test_the_bulk_card_lists_every_task_by_key_and_opens_the_rest(page: Page, live_server: Any, width: str,
                                                                 alice: User, website: Project) -> None:
    tasks = [task_create(actor=alice, project=website, title=f"Check link {n}") for n in range(SHOWN_ROWS + 4)]
    log_in(page, live_server.url, "alice", "/tasks/?status=todo")
    expect(page.locator("tr[data-entity-id]")).to_have_count(len(tasks))
    open_assistant(page)
    page.click("#assistant [data-assistant-action=mark_visible_done]")
    card = page.locator("#assistant .confirm-card").last
    expect(card).to_be_visible()

    first = card.locator(":scope > .facts-list li")
    expect(first).to_have_count(SHOWN_ROWS)
    more = card.locator("details.facts-more")
    expect(more.locator("summary")).to_have_text("and 4 more")
    expect(more.locator("li").first).to_be_hidden()
    assert_accessible(page)
    shot(page, f"bulk-card-{width}")

    more.locator("summary").click()
    expect(more.locator("li")).to_have_count(4)
    for row in more.locator("li").all():
        expect(row).to_be_visible()
    listed = [row.inner_text() for row in card.locator("li").all()]
    # Each task once, its key before its title.
    assert sorted(listed) == sorted(f"{t.key} {t.title}" for t in tasks), listed
    card.locator("summary").scroll_into_view_if_needed()
    assert_accessible(page)
    shot(page, f"bulk-card-more-{width}")

    card.locator("[data-confirm-run]").click()
    expect(page.locator("#assistant-transcript .run-done .run-reply").last).to_contain_text(
        f"Marked {len(tasks)} tasks as done")
    assert set(Task.objects.filter(pk__in=[t.pk for t in tasks]).values_list("status", flat=True)) == {"done"}
