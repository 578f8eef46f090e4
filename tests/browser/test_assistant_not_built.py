"""A quick action routed to a capability that is not built yet shows as an error bubble, not as a success."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Run
from projects.models import Project
from tasks.services import task_create

from .test_pages_browser import log_in

pytestmark = pytest.mark.browser

DANGER_SOFT = "rgb(254, 243, 242)"  # --danger-soft in app.css


def test_task_breakdown_says_it_is_not_available_in_an_error_bubble(page: Page, live_server: Any, alice: User,
                                                                    website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Launch the new site")
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/tasks/{task.pk}/")
    page.click("#assistant [data-assistant-action=decompose_task]")
    run = page.locator("#assistant-transcript .run").last
    expect(run).to_have_class("run run-error")
    expect(run.locator(".run-reply")).to_have_text(
        "Task breakdown is not available yet in this version; nothing was done.")
    expect(run.locator(".run-meta")).to_contain_text("0 model calls")
    bubble = run.locator(".bubble-assistant")
    assert bubble.evaluate("el => getComputedStyle(el).backgroundColor") == DANGER_SOFT
    stored = Run.objects.get()
    assert (stored.status, stored.error_code, stored.data) == ("error", "not_available", {"available": False})
