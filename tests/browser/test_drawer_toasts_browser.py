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


def test_a_row_toast_stays_in_view_above_the_open_drawer_without_offering_to_open_it(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    """At 390 px a row's toast covered the rows, then stayed over the opened drawer offering "Open assistant"."""
    tasks = [task_create(actor=alice, project=website, title=f"Renew certificate {n}") for n in range(12)]
    log_in(page, live_server.url, "alice", "/tasks/")
    page.locator(f"tr[data-entity-id='{tasks[3].pk}'] [data-assistant-action=mark_done]").click()
    narrow = width == "phone"
    toast = page.locator("#toasts .toast-reply")
    if narrow:  # the drawer stayed closed: the reply comes as a toast
        expect(toast).to_be_visible()
        expect(toast).to_be_in_viewport(ratio=1)
        expect(toast.get_by_role("link", name="Open assistant")).to_be_visible()
        # The last row scrolls clear of the toast: nothing on the page is reachable only under it.
        # The page's rows are refreshed after the change (page_context.js): scrolled to the end once the
        # list settles, checked in one predicate that is retried until the layout holds (or times out).
        page.wait_for_load_state("networkidle")
        page.wait_for_function("""() => {
            window.scrollTo(0, document.documentElement.scrollHeight);
            const rows = document.querySelectorAll("tr[data-entity-id]");
            const last = rows[rows.length - 1].getBoundingClientRect();
            const toast = document.querySelector("#toasts .toast-reply").getBoundingClientRect();
            return window.scrollY + innerHeight >= document.documentElement.scrollHeight - 2
                && last.bottom <= toast.top;
        }""", timeout=10_000)
        shot(page, f"row-toast-{width}")
        # No axe run here: the toast goes after ten seconds, and the drawer's checks below need it.
        page.click("#assistant-toggle")
    else:  # the sidebar is open at the desktop size: the answer is there, not in a toast
        expect(page.locator("#assistant-transcript .run-done .run-reply").last).to_contain_text("done")
        expect(toast).to_have_count(0)
    expect(page.locator("#assistant")).to_be_visible()
    if narrow:
        # Over the open drawer the toast stays whole and uncovered, covers none of the drawer's controls,
        # and no longer offers to open what is open.
        expect(toast).to_be_in_viewport(ratio=1)
        page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
        assert page.evaluate(UNCOVERED, ["#toasts .toast-reply"]) == [["#toasts .toast-reply", True]]
        expect(toast.get_by_role("link", name="Open assistant")).to_be_hidden()
    controls = ["#assistant-message", "#assistant .assistant-form button[type=submit]"]
    if narrow:
        controls.append("#assistant [data-close-assistant]")
    assert all(ok for _, ok in page.evaluate(UNCOVERED, controls)), page.evaluate(UNCOVERED, controls)
    for control in controls:
        expect(page.locator(control)).to_be_in_viewport(ratio=1)
    shot(page, f"row-toast-drawer-{width}")
    assert_accessible(page)
