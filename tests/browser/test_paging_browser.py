"""The pager in a browser: Next, Last and Previous by cursor on the task list (htmx) and the project page,
no axe-core violations at phone and desktop sizes."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task

from .shell import VIEWPORTS, assert_accessible, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_the_pager_walks_by_cursor_and_stays_accessible(page: Page, live_server: Any, size: str, alice: User,
                                                        website: Project) -> None:
    today = timezone.localdate()
    Task.objects.bulk_create(Task(project=website, title=f"Task {i:02}", created_by=alice,
                                  due_date=today + timedelta(days=i // 4)) for i in range(60))
    page.set_viewport_size(VIEWPORTS[size])
    log_in(page, live_server.url, "alice", "/tasks/?page_size=5")
    pager = page.locator("nav.pagination")
    expect(pager.locator("[rel=last]")).to_have_text("12")
    shot(page, "paging-task-list-first")
    assert_accessible(page)
    pager.locator("[rel=next]").click()
    expect(page.locator("#task-results")).to_contain_text("Showing 6–10 of 60 tasks")
    expect(page).to_have_url(f"{live_server.url}/tasks/?page_size=5&cursor=" + page.url.split("cursor=")[1])
    page.locator("nav.pagination [rel=last]").click()
    expect(page.locator("#task-results")).to_contain_text("Showing 56–60 of 60 tasks")
    expect(page.locator("nav.pagination .is-current")).to_have_text("12")
    expect(page.locator("tbody tr").last).to_contain_text("Task 59")
    shot(page, "paging-task-list-last")
    assert_accessible(page)
    page.locator("nav.pagination [rel=prev]").click()
    expect(page.locator("#task-results")).to_contain_text("Showing 51–55 of 60 tasks")

    page.goto(f"{live_server.url}/projects/{website.pk}/")
    expect(page.get_by_text("Showing 1–25 of 60 tasks")).to_be_visible()
    page.locator("nav.pagination [rel=next]").click()
    expect(page.get_by_text("Showing 26–50 of 60 tasks")).to_be_visible()
    page.locator("nav.pagination [rel=next]").click()
    expect(page.get_by_text("Showing 51–60 of 60 tasks")).to_be_visible()
    shot(page, "paging-project-last")
    assert_accessible(page)
