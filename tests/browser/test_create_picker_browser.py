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
