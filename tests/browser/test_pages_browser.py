"""The pages in a real Chromium: log in, filter and page the task list, move a board card, edit in place."""
from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.services import task_create

pytestmark = pytest.mark.browser


@pytest.fixture
def many_tasks(alice: User, carol: User, website: Project) -> list[Task]:
    """Thirty tasks in Website Redesign: the first twenty-one to do, the rest in progress."""
    return [
        task_create(actor=alice, project=website, title=f"Task {n:02}", assignee=carol if n % 2 else alice,
                    status="todo" if n < 21 else "in_progress", due_date=date(2030, 1, 1) + timedelta(days=n))
        for n in range(30)
    ]


def log_in(page: Page, base: str, username: str, path: str = "/") -> None:
    """Signed in by a session the server makes (Django's test client), then on `path` (home by default).

    The form itself is tested once (test_the_sign_in_form_lands_on_home); the other browser tests
    start signed in without typing, submitting and hashing a password each time, on the page they test.
    """
    client = Client()
    client.force_login(User.objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base}])
    page.goto(f"{base}{path}")
    expect(page).to_have_url(f"{base}{path}")


def test_the_sign_in_form_lands_on_home(page: Page, live_server: Any, alice: User) -> None:
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(re.compile(r"/login/"))
    page.fill("#id_username", "alice")
    page.fill("#id_password", "demo")
    page.click("button[type=submit]")
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.locator("nav.mainnav")).to_contain_text("Tasks")


def page_context(page: Page, name: str) -> Any:
    return json.loads(page.get_attribute("#page-context", name) or "null")


def test_task_list_filters_and_pages(page: Page, live_server: Any, many_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice")
    page.click("nav.mainnav >> text=Tasks")
    rows = page.locator("tr[data-entity-type=task]")
    expect(rows).to_have_count(25)
    assert page_context(page, "data-pagination") == {"page": 1, "pageSize": 25}

    page.click("nav.pagination >> text=Next ›")
    expect(page).to_have_url(re.compile(r"cursor="))  # Next is a cursor link: no OFFSET on deep pages
    expect(rows).to_have_count(5)
    assert page_context(page, "data-pagination") == {"page": 2, "pageSize": 25}
    shown = [int(i) for i in rows.evaluate_all("rows => rows.map(r => r.dataset.entityId)")]
    assert page_context(page, "data-visible-entity-ids") == shown
    assert shown == [t.pk for t in many_tasks[25:]]

    page.click("label.filter-chip:has-text('In progress')")
    expect(page).to_have_url(re.compile(r"status=in_progress"))
    expect(rows).to_have_count(9)
    expect(page.locator("td.col-status .badge").first).to_have_text("In progress")
    expect(page.locator("#page-context")).to_have_attribute("data-filters", '{"status":["in_progress"]}')
    assert page_context(page, "data-pagination") == {"page": 1, "pageSize": 25}


def test_invalid_filter_shows_the_error_in_the_browser(page: Page, live_server: Any, many_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice", "/tasks/?due_before=soon")
    expect(page.locator("#filter-error")).to_contain_text("due_before")
    expect(page.locator("tr[data-entity-type=task]")).to_have_count(0)


def test_board_card_moves_to_its_new_column(page: Page, live_server: Any, many_tasks: list[Task]) -> None:
    task = many_tasks[0]
    log_in(page, live_server.url, "carol")
    page.click("nav.mainnav >> text=Projects")
    page.click("text=Website Redesign")
    page.click("nav.segmented >> text=Board")
    expect(page.locator("#board-cards-todo article.card")).to_have_count(21)

    page.select_option(f"#status-{task.pk}", "done")
    expect(page.locator(f"#board-cards-done #card-{task.pk}")).to_be_visible()
    expect(page.locator(f"#board-cards-done #card-{task.pk}")).to_have_class(re.compile(r"\bcard-arrived\b"))
    expect(page.locator(f"#board-cards-todo #card-{task.pk}")).to_have_count(0)
    # The moved card takes a status change straight away, in its new column.
    page.select_option(f"#status-{task.pk}", "in_progress")
    expect(page.locator(f"#board-cards-in_progress #card-{task.pk}")).to_be_visible()
    page.select_option(f"#status-{task.pk}", "done")
    expect(page.locator(f"#board-cards-done #card-{task.pk}")).to_be_visible()
    expect(page.locator("#board-count-done")).to_have_text("1")
    expect(page.locator("#board-count-todo")).to_have_text("20")
    expect(page.locator("#project-summary .stat", has_text="Done").locator(".stat-num")).to_have_text("1")
    task.refresh_from_db()
    assert task.status == "done"
    assert TaskActivity.objects.filter(task=task, kind="status", to_value="done").exists()


def test_task_detail_inline_edit(page: Page, live_server: Any, many_tasks: list[Task]) -> None:
    task = many_tasks[3]
    log_in(page, live_server.url, "carol", f"/tasks/{task.pk}/")
    page.click("#field-priority .btn-edit")
    page.select_option("#field-priority select", "P0")
    page.click("#field-priority button[type=submit]")
    expect(page.locator("#field-priority .priority")).to_have_text("P0")
    expect(page.locator("#activity")).to_contain_text("changed priority from P2 to P0")

    page.click("#field-progress .btn-edit")
    page.fill("#field-progress input[name=progress]", "140")
    page.click("#field-progress button[type=submit]")
    expect(page.locator("#field-progress .field-error")).to_contain_text("less than or equal to 100")
    task.refresh_from_db()
    assert (task.priority, task.progress) == ("P0", 0)
