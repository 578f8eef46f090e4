"""The task list's filters and the browser's history: Back and Forward show the filters of the results."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.services import task_create

from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def mixed(alice: User, website: Project, mobile: Project) -> None:
    """Website: to do P1, to do P2, in progress P1, in progress P2, blocked P1. Mobile: in progress P1."""
    for status, priority in (("todo", "P1"), ("todo", "P2"), ("in_progress", "P1"), ("in_progress", "P2"),
                             ("blocked", "P1")):
        task_create(actor=alice, project=website, title=f"Web {status} {priority}", status=status, priority=priority)
    task_create(actor=alice, project=mobile, title="App in_progress P1", status="in_progress", priority="P1")


def chip(page: Page, fieldset: str, label: str) -> Any:
    return page.locator(f"#task-filters fieldset:has(legend:text-is('{fieldset}')) label.filter-chip",
                        has_text=label)


def test_back_shows_the_filters_of_the_results_and_the_next_change_keeps_them(
        page: Page, live_server: Any, width: str, website: Project, mixed: None) -> None:
    log_in(page, live_server.url, "alice", "/tasks/")
    rows = page.locator("tr[data-entity-type=task]")
    expect(rows).to_have_count(6)

    chip(page, "Status", "In progress").click()
    expect(rows).to_have_count(3)
    chip(page, "Priority", "P1").click()
    expect(rows).to_have_count(2)
    page.select_option("#f-project", str(website.pk))
    expect(rows).to_have_count(1)

    page.go_back()
    expect(page).to_have_url(re.compile(r"status=in_progress.*priority=P1|priority=P1.*status=in_progress"))
    expect(rows).to_have_count(2)
    expect(page.locator("#f-project")).to_have_value("")
    expect(chip(page, "Status", "In progress").locator("input")).to_be_checked()
    expect(chip(page, "Priority", "P1").locator("input")).to_be_checked()

    page.go_back()
    expect(rows).to_have_count(3)
    expect(chip(page, "Status", "In progress").locator("input")).to_be_checked()
    expect(chip(page, "Priority", "P1").locator("input")).not_to_be_checked()
    expect(page.locator("#f-project")).to_have_value("")

    # The next change adds to the filters shown, not to the ones the page was first drawn with.
    chip(page, "Status", "To do").click()
    expect(page).to_have_url(re.compile(r"status=todo"))
    assert "priority" not in page.url and "project=" not in page.url, page.url
    assert "status=in_progress" in page.url, page.url
    expect(rows).to_have_count(5)

    page.go_back()
    page.go_forward()
    expect(rows).to_have_count(5)
    expect(chip(page, "Status", "To do").locator("input")).to_be_checked()
    expect(chip(page, "Status", "In progress").locator("input")).to_be_checked()
