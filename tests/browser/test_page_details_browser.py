"""Page details in a real Chromium: View all links, the empty state, Edit links and pagination contrast."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.services import task_create

from .shell import assert_accessible, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser



def test_changed_pages_read_well_and_pass_axe(page: Page, live_server: Any, width: str, alice: User,
                                              website: Project) -> None:
    tasks = [task_create(actor=alice, project=website, title=f"Write section {n}", assignee=alice)
             for n in range(12)]
    log_in(page, live_server.url, "alice")
    page.get_by_role("link", name="View all my open tasks").click()
    expect(page.locator("tr[data-entity-id]")).to_have_count(12)
    page.goto(f"{live_server.url}/")
    assert_accessible(page)
    shot(page, f"details-home-{width}")

    page.goto(f"{live_server.url}/tasks/?status=done")
    expect(page.get_by_text("No tasks match these filters.")).to_be_visible()
    assert_accessible(page)
    shot(page, f"details-no-matches-{width}")

    page.goto(f"{live_server.url}/tasks/?page_size=10")
    expect(page.locator(".page-link.is-disabled")).to_have_text("‹ Previous")
    expect(page.get_by_role("button", name="Mark 'Write section 0' done")).to_have_count(1)
    assert_accessible(page)
    page.locator(".pagination").scroll_into_view_if_needed()
    shot(page, f"details-pagination-{width}")

    page.goto(f"{live_server.url}/tasks/{tasks[0].pk}/")
    expect(page.locator(".btn-edit").first).to_be_visible()
    assert_accessible(page)
    shot(page, f"details-task-{width}")
