"""Toasts and the assistant drawer on a phone: a toast never covers what the drawer asks the user to use."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect

from projects.models import Project
from tasks.services import task_create

from .shell import VIEWPORTS, assert_accessible, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser

# Each control's centre must hit the control itself, not a toast drawn over it.
UNCOVERED = """selectors => selectors.map(selector => {
    const el = document.querySelector(selector);
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return [selector, Boolean(hit && el.contains(hit))];
})"""


def test_a_toast_does_not_cover_the_open_drawer(page: Page, live_server: Any, alice: User,
                                                 website: Project) -> None:
    page.set_viewport_size(VIEWPORTS["phone"])
    tasks = [task_create(actor=alice, project=website, title=f"Renew domain {n}") for n in range(3)]
    log_in(page, live_server.url, "alice", "/tasks/")
    page.locator(f"tr[data-entity-id='{tasks[1].pk}'] [data-assistant-action=delete_task]").click()
    card = page.locator("#assistant .confirm-card")
    expect(card).to_be_focused()

    # The server fails the approval: an error toast appears while the drawer stays open on the card.
    def fail(route: Route) -> None:
        route.fulfill(status=500, body="")

    page.route("**/assistant/runs/*/confirm/", fail)
    card.locator("button[data-confirm-run]").click()
    toast = page.locator("#toasts .toast")
    expect(toast).to_be_visible()
    expect(toast).to_be_in_viewport(ratio=1)
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
    controls = ["#assistant .confirm-card button[data-confirm-run]", "#assistant .confirm-card button:last-child",
                "#assistant-message", "#assistant .assistant-form button[type=submit]",
                "#assistant [data-close-assistant]"]
    assert all(ok for _, ok in page.evaluate(UNCOVERED, controls)), page.evaluate(UNCOVERED, controls)
    for control in controls:
        expect(page.locator(control)).to_be_in_viewport(ratio=1)
    shot(page, "drawer-with-toast")
    assert_accessible(page)

    # Dismissed, the toast gives its room back to the drawer.
    toast.get_by_role("button", name="Dismiss").click()
    expect(toast).to_have_count(0)
    page.wait_for_function(
        "() => document.querySelector('#assistant .assistant-panel').getBoundingClientRect().top === 0")
