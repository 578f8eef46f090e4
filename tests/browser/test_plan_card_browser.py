"""The plan card and deleting in a real Chromium, at the phone and the desktop size.

A dropped step is struck through and Approve counts the steps that will run; a reload keeps the
unticked boxes; a done task offers no Break down; a description's sentences become the offline
plan; deleting a task from its own page lands on the task list with a toast and no 404.
"""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Locator, Page, Response, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def _struck(step: Locator) -> bool:
    return "line-through" in step.locator(".plan-step-words").evaluate(
        "el => getComputedStyle(el).textDecorationLine")


def _break_down(page: Page, base: str, task: Task) -> Locator:
    page.goto(f"{base}/tasks/{task.pk}/")
    open_assistant(page)
    page.click("#assistant [data-assistant-action=decompose_task]")
    card = page.locator(".plan-card").last
    expect(card).to_be_visible()
    return card


def test_a_dropped_step_is_struck_through_counted_and_kept_after_a_reload(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Publish the handbook",
                       description="- Collect the chapters\n- Copy-edit the text\n- Print the first run")
    log_in(page, live_server.url, "alice")
    card = _break_down(page, live_server.url, task)
    approve = card.locator("[data-confirm-run]")
    expect(approve).to_have_text("Approve and run 3 steps")
    assert_accessible(page)
    shot(page, f"plan-card-{width}")

    card.locator(".plan-step[data-step=s2] input[type=checkbox]").uncheck()
    assert _struck(card.locator(".plan-step[data-step=s2]"))
    assert not _struck(card.locator(".plan-step[data-step=s1]"))
    expect(approve).to_have_text("Approve and run 2 of 3 steps")
    assert_accessible(page)
    shot(page, f"plan-card-step-dropped-{width}")

    page.reload()
    open_assistant(page)
    card = page.locator(".plan-card").last
    expect(card.locator(".plan-step[data-step=s2] input[type=checkbox]")).not_to_be_checked()
    expect(card.locator(".plan-step[data-step=s1] input[type=checkbox]")).to_be_checked()
    assert _struck(card.locator(".plan-step[data-step=s2]"))
    expect(card.locator("[data-confirm-run]")).to_have_text("Approve and run 2 of 3 steps")

    card.locator("[data-confirm-run]").click()
    reply = page.locator("#assistant-transcript .run-done .run-reply").last
    expect(reply).to_contain_text("Done 2 of 2 steps")
    expect(reply).to_contain_text("Left out, as you unchecked it: Create subtask “Copy-edit the text”")
    assert sorted(task.subtasks.values_list("title", flat=True)) == ["Collect the chapters", "Print the first run"]
    assert_accessible(page)
    shot(page, f"plan-card-approved-{width}")


def test_unticking_every_step_leaves_nothing_to_approve(page: Page, live_server: Any, width: str, alice: User,
                                                       website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Tidy the wiki",
                       description="Archive the old pages. Merge the two FAQ pages.")
    log_in(page, live_server.url, "alice")
    card = _break_down(page, live_server.url, task)
    # The description's sentences, not a generic plan / build / review.
    expect(card.locator(".plan-step-words")).to_have_count(2)
    expect(card).to_contain_text("Archive the old pages")
    expect(card).to_contain_text("Merge the two FAQ pages")
    expect(card).not_to_contain_text("Plan: Tidy the wiki")
    for box in card.locator("input[name=keep_steps]").all():
        box.uncheck()
    expect(card.locator("[data-confirm-run]")).to_be_disabled()
    card.get_by_role("button", name="Reject").click()
    expect(page.locator(".plan-card")).to_have_count(0)
    assert_accessible(page)
    shot(page, f"plan-card-rejected-{width}")
    assert not task.subtasks.exists()


def test_a_done_task_offers_no_break_down(page: Page, live_server: Any, width: str, alice: User,
                                         website: Project) -> None:
    done = task_create(actor=alice, project=website, title="Ship the beta", status="done")
    open_task = task_create(actor=alice, project=website, title="Plan the launch")
    log_in(page, live_server.url, "alice", f"/tasks/{done.pk}/")
    open_assistant(page)
    expect(page.locator("#assistant [data-assistant-action=decompose_task]")).to_be_hidden()
    expect(page.locator("#assistant [data-assistant-action=delete_task]")).to_be_visible()
    page.goto(f"{live_server.url}/tasks/")
    expect(page.locator(f"tr[data-entity-id='{done.pk}'] [data-assistant-action=decompose_task]")).to_have_count(0)
    expect(page.locator(f"tr[data-entity-id='{open_task.pk}'] [data-assistant-action=decompose_task]")).to_have_count(1)


def test_deleting_from_the_task_page_lands_on_the_list_with_a_toast_and_no_404(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Draft the press release")
    failed: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    page.on("response", on_response)
    open_assistant(page)
    page.click("#assistant [data-assistant-action=delete_task]")
    card = page.locator(".confirm-card").last
    expect(card).to_contain_text("Delete this task?")
    assert_accessible(page)
    shot(page, f"delete-card-{width}")
    card.locator("[data-confirm-run]").click()

    expect(page).to_have_url(f"{live_server.url}/tasks/")
    toast = page.locator("#toasts [data-flash]")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("Draft the press release")
    expect(toast).to_have_attribute("role", "status")
    assert_accessible(page)
    shot(page, f"delete-toast-{width}")
    assert not Task.objects.filter(pk=task.pk).exists()
    assert failed == []
    page.reload()  # said once, not again on the next page
    expect(page.locator("#toasts [data-flash]")).to_have_count(0)
