"""The sidebar in a real Chromium: help, a Chinese request, and a formatted list whose rows link."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agent.routing.quick_actions import quick_actions_for
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def _ask(page: Page, message: str) -> Any:
    """Send a message and return its run once it is in the transcript (a reload may show earlier ones)."""
    runs = page.locator("#assistant-transcript .run")
    before = runs.count()
    page.fill("#assistant-message", message)
    page.click(".assistant-form button[type=submit]")
    expect(runs).to_have_count(before + 1)
    run = runs.last
    expect(run.locator(".run-meta")).to_be_visible()
    return run


def test_help_lists_the_pages_buttons_and_a_button_answers(page: Page, live_server: Any, alice: User,
                                                           website: Project) -> None:
    task_create(actor=alice, project=website, title="Renew the TLS certificate", assignee=alice,
                due_date=timezone.localdate() - timedelta(days=3))
    log_in(page, live_server.url, "alice")
    run = _ask(page, "what can you do?")
    # The home page's buttons, as the capabilities' specs declare them.
    labels = [entry.label for entry in quick_actions_for("home")]
    expect(run.locator(".run-reply")).to_contain_text(f"“{labels[0]}”")
    chips = run.locator(".assistant-quick .chip")
    expect(chips).to_have_text(labels)
    chips.first.click()
    expect(page.locator("#assistant-transcript .run").last.locator(".run-items")).to_contain_text(
        "Renew the TLS certificate")


def test_a_chinese_request_marks_the_open_task_done(page: Page, live_server: Any, alice: User,
                                                    website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship the footer")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    run = _ask(page, "把这个任务标记为完成")
    expect(run.locator(".run-reply")).to_contain_text(f"已更新 {task.key}")  # asked in Chinese, answered in Chinese
    expect(run.locator(f".run-reply a[href='/tasks/{task.pk}/']")).to_have_text(task.key)
    task.refresh_from_db()
    assert task.status == Task.Status.DONE


def test_a_list_reply_shows_rows_as_the_page_does_with_links(page: Page, live_server: Any, alice: User,
                                                            website: Project, mobile: Project) -> None:
    late = timezone.localdate() - timedelta(days=2)
    tasks = [task_create(actor=alice, project=project, title=f"{project.key} late {n}", assignee=alice,
                         due_date=late) for project in (website, mobile) for n in range(6)]
    log_in(page, live_server.url, "alice")
    run = _ask(page, "what is overdue in Website Redesign?")
    rows = run.locator(".run-items li")
    expect(rows).to_have_count(6)
    first = rows.first
    expect(first.locator(".badge")).to_have_text("To do")
    expect(first.locator("time.due.overdue")).to_be_visible()
    colour = first.locator("time.due").evaluate("e => getComputedStyle(e).color")
    assert colour == "rgb(217, 45, 32)"  # --danger, as the task list shows an overdue date
    expect(first.locator(".key")).to_have_text(tasks[0].key)
    first.locator(".run-item-title a").click()
    expect(page).to_have_url(f"{live_server.url}/tasks/{tasks[0].pk}/")
    run = _ask(page, "what is overdue?")
    more = run.locator(".run-more a")
    expect(more).to_have_text("Showing 10 of 12")
    more.click()
    expect(page.locator("tr.task-row")).to_have_count(12)
