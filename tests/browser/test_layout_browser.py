"""Layout in a real Chromium: no page is wider than a phone, the drawer stays on screen, labels stay legible."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import VIEWPORTS, assert_accessible, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def long_project(alice: User, carol: User, website: Project) -> list[Task]:
    """Twelve tasks over four months with long titles, some overdue: a full risk panel and a long timeline."""
    today = date.today()
    return [task_create(actor=alice, project=website, assignee=carol,
                        title=f"Redesign the checkout flow for returning customers, step {n}",
                        start_date=today - timedelta(days=40 - n * 5), due_date=today + timedelta(days=n * 7 - 10))
            for n in range(12)]


def overflow(page: Page) -> dict[str, int]:
    return page.evaluate("() => ({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})")


def test_no_page_is_wider_than_a_phone(page: Page, live_server: Any, website: Project,
                                       long_project: list[Task]) -> None:
    page.set_viewport_size(VIEWPORTS["phone"])
    page.goto(f"{live_server.url}/login/")
    assert overflow(page)["scroll"] <= overflow(page)["inner"], "/login/"
    log_in(page, live_server.url, "alice")
    project = f"/projects/{website.pk}/"
    pages = ["/", "/projects/", project, f"{project}?view=board", f"{project}?view=gantt", "/tasks/",
             f"/tasks/{long_project[0].pk}/", "/tasks/new/", f"{project}reports/weekly/", "/reports/weekly/"]
    for url in pages:
        page.goto(f"{live_server.url}{url}")
        if url.startswith(project) and "reports" not in url:
            # The risk panel comes after the page: its chart and hidden data table are what widened it.
            expect(page.locator("#risk-panel canvas")).to_be_attached()
        size = overflow(page)
        assert size["scroll"] <= size["inner"], (url, size)


def test_the_drawer_is_fully_on_screen_on_the_project_page(page: Page, live_server: Any, website: Project,
                                                          long_project: list[Task]) -> None:
    page.set_viewport_size(VIEWPORTS["phone"])
    log_in(page, live_server.url, "alice")
    for view in ("", "?view=board", "?view=gantt"):
        page.goto(f"{live_server.url}/projects/{website.pk}/{view}")
        expect(page.locator("#risk-panel canvas")).to_be_attached()
        page.click("#assistant-toggle")
        drawer = page.locator("#assistant")
        expect(drawer).to_be_visible()
        for control in (drawer.get_by_role("button", name="Close"), drawer.get_by_role("button", name="Send")):
            expect(control).to_be_in_viewport(ratio=1)
        box = drawer.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS["phone"]["width"], box
        size = overflow(page)
        assert size["scroll"] <= size["inner"], (view, size)
    # The same risk chart in the drawer does not widen the transcript either.
    page.get_by_role("button", name="Tasks at risk").click()
    expect(page.locator("#assistant-transcript .run .risk-chart")).to_be_attached()
    assert page.evaluate("""() => { const t = document.getElementById('assistant-transcript');
        return t.scrollWidth <= t.clientWidth; }""")
    shot(page, "layout-drawer-risk")


def test_board_task_keys_stay_on_one_line(page: Page, live_server: Any, website: Project,
                                          long_project: list[Task]) -> None:
    page.set_viewport_size(VIEWPORTS["desktop"])
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/?view=board")
    keys = page.locator(".board .card .key")
    expect(keys).to_have_count(len(long_project))
    lines = keys.evaluate_all("""keys => keys.map(k => {
        const s = getComputedStyle(k);
        const inner = k.getBoundingClientRect().height - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
        return Math.round(inner / parseFloat(s.lineHeight));
    })""")
    assert set(lines) == {1}, lines
    # Nothing in a card spills out of it.
    assert page.evaluate("""() => [...document.querySelectorAll('.board .card')].every(card => {
        const box = card.getBoundingClientRect();
        return [...card.querySelectorAll('*')].every(el => el.getBoundingClientRect().right <= box.right + 0.5);
    })""")
    shot(page, "layout-board")


def test_timeline_date_labels_do_not_touch_on_a_phone(page: Page, live_server: Any, website: Project,
                                                      long_project: list[Task]) -> None:
    page.set_viewport_size(VIEWPORTS["phone"])
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/?view=gantt")
    ticks = page.locator(".gantt-axis .gantt-tick")
    expect(ticks.first).to_be_attached()
    # The labels a reader sees (a skipped label keeps its tick mark, its text is not drawn).
    shown = ticks.evaluate_all("""ticks => ticks
        .filter(t => getComputedStyle(t).color !== 'rgba(0, 0, 0, 0)')
        .map(t => { const r = t.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert len(shown) >= 3, shown
    gaps = [later[0] - earlier[1] for earlier, later in zip(shown, shown[1:], strict=False)]
    assert min(gaps) >= 4, gaps
    assert_accessible(page)
    page.locator(".gantt-scroll").scroll_into_view_if_needed()
    shot(page, "layout-timeline")


def test_what_the_assistant_looks_at_keeps_its_line_under_a_long_conversation(
        page: Page, live_server: Any, width: str, long_project: list[Task]) -> None:
    log_in(page, live_server.url, "alice", "/tasks/")
    if not page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    for answers in (1, 2, 3):  # more than the transcript can show: it scrolls, the line above the input does not
        page.fill("#assistant-message", "help")
        page.click(".assistant-form button[type=submit]")
        expect(page.locator("#assistant-transcript .run-done")).to_have_count(answers)
    line = page.locator("#assistant-context")
    expect(line).to_contain_text("Looking at")
    sizes = line.evaluate("el => ({shown: el.clientHeight, needed: el.scrollHeight})")
    assert sizes["shown"] >= sizes["needed"], sizes
    shot(page, "context-line-under-a-long-conversation")
