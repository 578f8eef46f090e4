"""axe-core on every page with the assistant open and closed, at phone and desktop sizes: 0 violations."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.services import task_create

from .shell import VIEWPORTS, axe_violations, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_every_page_has_no_axe_violations_with_the_assistant_open_or_closed(
        page: Page, live_server: Any, size: str, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Write the release notes", assignee=alice)
    page.set_viewport_size(VIEWPORTS[size])
    log_in(page, live_server.url, "alice")
    pages = {"home": "/", "tasks": "/tasks/", "task": f"/tasks/{task.pk}/", "projects": "/projects/",
             "project": f"/projects/{website.pk}/", "report": "/reports/weekly/"}
    found: dict[str, Any] = {}
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        for state in ("open", "closed"):
            want_open = state == "open"
            if page.locator("#assistant").is_visible() != want_open:
                # On a phone the open drawer covers the top bar: it closes with its own button.
                close = page.locator("#assistant [data-close-assistant]")
                page.click("#assistant [data-close-assistant]" if not want_open and close.is_visible()
                           else "#assistant-toggle")
            expect(page.locator("#assistant")).to_be_visible() if want_open else \
                expect(page.locator("#assistant")).to_be_hidden()
            shot(page, f"page-{name}-assistant-{state}-{size}")
            violations = axe_violations(page)
            if violations:
                found[f"{name}/{state}"] = violations
    assert found == {}, found
