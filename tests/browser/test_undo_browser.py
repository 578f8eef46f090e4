"""Undo in a real Chromium: "Mark visible as done" on the task list, then Undo brings the rows back."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import VIEWPORTS, assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser




def test_undo_after_mark_visible_as_done_restores_the_rows(page: Page, live_server: Any, width: str,
                                                           alice: User, website: Project) -> None:
    tasks = [task_create(actor=alice, project=website, title=f"Proofread chapter {n}", status=status)
             for n, status in ((1, "todo"), (2, "in_progress"), (3, "blocked"))]
    log_in(page, live_server.url, "alice", "/tasks/?status=todo&status=in_progress&status=blocked")
    expect(page.locator("tr[data-entity-id]")).to_have_count(3)
    open_assistant(page)
    page.click("#assistant [data-assistant-action=mark_visible_done]")
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_contain_text("Marked 3 tasks as done")
    expect(page.locator("tr[data-entity-id]")).to_have_count(0)
    undo = run.get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    assert_accessible(page)
    shot(page, f"undo-offered-{width}")

    undo.click()
    undone = page.locator("#assistant-transcript .run").last
    expect(undone.locator(".run-undone")).to_have_text("Undone: the previous values of 3 tasks are back.")
    expect(undone.get_by_role("button", name="Undo")).to_have_count(0)
    expect(page.locator("tr[data-entity-id]")).to_have_count(3)
    assert {t.pk: t.status for t in Task.objects.filter(pk__in=[t.pk for t in tasks])} == \
        {t.pk: t.status for t in tasks}
    assert_accessible(page)
    shot(page, f"undo-done-{width}")


def test_mark_done_on_the_task_page_hides_the_button_and_undo_brings_it_back(
        page: Page, live_server: Any, alice: User, website: Project) -> None:
    page.set_viewport_size(VIEWPORTS["desktop"])
    task = task_create(actor=alice, project=website, title="Book the venue", status="in_progress")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    mark_done = page.locator("#assistant [data-assistant-action=mark_done]")
    expect(mark_done).to_be_visible()
    mark_done.click()
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_contain_text("status done")
    expect(mark_done).to_be_hidden()  # the page refreshed: a done task offers no Mark done
    run.get_by_role("button", name="Undo").click()
    expect(page.locator("#assistant-transcript .run-undone")).to_have_count(1)
    expect(mark_done).to_be_visible()
    task.refresh_from_db()
    assert task.status == "in_progress"
