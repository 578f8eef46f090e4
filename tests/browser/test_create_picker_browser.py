"""Create from home in a real Chromium: the reply's project picker sends the request again, scoped."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task

from .shell import assert_accessible, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser



def test_create_from_home_picks_the_project_in_the_reply(page: Page, live_server: Any, width: str, alice: User,
                                                         website: Project, mobile: Project) -> None:
    log_in(page, live_server.url, "alice")
    if not page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    page.fill("#assistant-message", "create task 'Write release notes'")
    page.click(".assistant-form button[type=submit]")
    picker = page.get_by_role("group", name="Projects to create the task in")
    expect(picker.get_by_role("button")).to_have_count(2)
    assert_accessible(page)
    shot(page, f"create-project-picker-{width}")
    picker.get_by_role("button", name="Website Redesign").click()
    expect(page.locator("#assistant-transcript .run-done .run-reply").last).to_contain_text("Created WEB-")
    assert Task.objects.get(title="Write release notes").project_id == website.pk


def test_a_picked_project_closes_the_choices_for_good(page: Page, live_server: Any, width: str, alice: User,
                                                      website: Project, mobile: Project) -> None:
    log_in(page, live_server.url, "alice")
    if not page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    page.fill("#assistant-message", "create task 'Order the banners'")
    page.click(".assistant-form button[type=submit]")
    picker = page.get_by_role("group", name="Projects to create the task in")
    choices = picker.get_by_role("button")
    expect(choices).to_have_count(2)
    choices.filter(has_text="Website Redesign").click()
    expect(page.locator("#assistant-transcript .run-done .run-reply").last).to_contain_text("Created WEB-")
    for n in range(2):
        expect(choices.nth(n)).to_be_disabled()
    # A second click (on either choice) sends nothing: no second task, no second reply.
    choices.filter(has_text="Website Redesign").click(force=True)
    choices.filter(has_text="Mobile App").click(force=True)
    page.wait_for_timeout(500)
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
    assert Task.objects.filter(title="Order the banners").count() == 1
    assert_accessible(page)
    shot(page, f"create-project-picked-{width}")

    page.reload()
    if not page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    expect(choices).to_have_count(2)
    for n in range(2):
        expect(choices.nth(n)).to_be_disabled()
    choices.filter(has_text="Mobile App").click(force=True)
    page.wait_for_timeout(500)
    assert Task.objects.filter(title="Order the banners").count() == 1
