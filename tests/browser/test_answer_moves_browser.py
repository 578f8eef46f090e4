"""The moves around an answer in a real Chromium: suggested follow-ups, copy, edit-and-resend and retry, the
"Looking at" label saying what the assistant sees, and Alt+Shift+A showing or hiding the assistant."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agent.models import Run
from agent.routing.quick_actions import quick_actions_for
from projects.models import Project
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def send(page: Page, message: str) -> None:
    page.fill("#assistant-message", message)
    page.click(".assistant-form button[type=submit]")


def test_an_answer_offers_follow_ups_that_run(page: Page, live_server: Any, width: str, alice: User,
                                              website: Project) -> None:
    task_create(actor=alice, project=website, assignee=alice, title="Late one",
                due_date=timezone.localdate() - timedelta(days=1))
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.click("#assistant .assistant-quick [data-assistant-action=my_overdue]")
    follow_ups = page.locator("#assistant-transcript .run-done").last.get_by_role("group", name="Suggested follow-ups")
    # The page's other quick actions that only read: not the answer's own (My overdue tasks), as the table says.
    offered = [entry for entry in quick_actions_for("home") if entry.capability != "query" and not entry.changes_tasks]
    assert {"weekly_report", "risk"} <= {entry.capability for entry in offered}
    expect(follow_ups.get_by_role("button")).to_have_text([entry.label for entry in offered])
    shot(page, f"follow-ups-{width}")
    assert_accessible(page)
    risk = next(entry for entry in offered if entry.capability == "risk")
    follow_ups.get_by_role("button", name=risk.label).click()
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(2)
    expect(page.locator("#assistant-transcript .bubble-user").last).to_have_text(risk.label)
    assert Run.objects.filter(user=alice, capability="risk").count() == 1


def test_an_answer_is_copied_and_its_question_edited_or_retried(page: Page, live_server: Any, width: str,
                                                                alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, assignee=alice, title="Write the release notes",
                       status="blocked")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, "show my blocked tasks")
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_contain_text("1 matching task (blocked; assigned to you):")

    run.get_by_role("button", name="Copy the answer").click()
    expect(run.get_by_role("button", name="Copied the answer")).to_be_visible()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("1 matching task (blocked; assigned to you):")
    assert f"- {task.key} Write the release notes" in copied

    run.get_by_role("button", name="Edit and send again").click()
    box = page.locator("#assistant-message")
    expect(box).to_have_value("show my blocked tasks")
    expect(box).to_be_focused()
    expect(page.locator("#assistant-count")).to_have_text("21 / 2000")
    box.press("End")
    box.press_sequentially(" in Website Redesign")
    box.press("Enter")
    expect(page.locator("#assistant-transcript .bubble-user")).to_have_text(
        ["show my blocked tasks", "show my blocked tasks in Website Redesign"])
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(2)

    page.locator("#assistant-transcript .run-done").first.get_by_role("button", name="Retry this message").click()
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(3)
    expect(page.locator("#assistant-transcript .bubble-user").last).to_have_text("show my blocked tasks")
    assert list(Run.objects.filter(user=alice).order_by("created_at").values_list("message", flat=True)) == [
        "show my blocked tasks", "show my blocked tasks in Website Redesign", "show my blocked tasks"]
    shot(page, f"answer-tools-{width}")
    assert_accessible(page)


def test_a_quick_buttons_answer_is_retried_by_the_pages_own_button(page: Page, live_server: Any, width: str,
                                                                   alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, assignee=alice, title="Late one",
                       due_date=timezone.localdate() - timedelta(days=1))
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    page.click("#assistant .assistant-quick [data-assistant-action=my_overdue]")
    answers = page.locator("#assistant-transcript .run-done")
    expect(answers).to_have_count(1)
    retry = answers.first.get_by_role("button", name="Retry this quick action")
    expect(retry).to_be_visible()
    assert_accessible(page)
    shot(page, f"quick-retry-{width}")
    retry.click()
    expect(answers).to_have_count(2)
    expect(answers.last.locator(".run-items")).to_contain_text("Late one")
    stored = list(Run.objects.filter(user=alice).order_by("created_at").values_list("action", "page_context"))
    assert [(action, context["origin"], context["page"]) for action, context in stored] == \
        [("my_overdue", "workbench", "home")] * 2
    # On a page without that button the conversation shows no Retry for it: the button is the page's.
    page.goto(f"{live_server.url}/tasks/{task.pk}/")
    open_assistant(page)
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(2)
    expect(page.locator("#assistant-transcript [data-retry-action]").first).to_be_hidden()
    expect(page.get_by_role("button", name="Retry this quick action")).to_have_count(0)


def test_the_assistant_says_what_it_is_looking_at(page: Page, live_server: Any, width: str, alice: User,
                                                  website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Fix the login page")
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    label = page.locator("#assistant-context")
    expect(label).to_have_text("Looking at the home workbench")
    page.goto(f"{live_server.url}/tasks/{task.pk}/")
    open_assistant(page)
    expect(label).to_have_text(f"Looking at {task.key} “Fix the login page”")
    page.goto(f"{live_server.url}/projects/{website.pk}/")
    open_assistant(page)
    expect(label).to_have_text(f"Looking at {website.key} “{website.name}” · overview tab")
    page.goto(f"{live_server.url}/tasks/")
    open_assistant(page)
    expect(label).to_have_text("Looking at the task list · 1 task shown")
    # Filtering swaps the results in place: the line follows the page context.
    if width == "phone":
        page.click("[data-close-assistant]")
    page.locator("#task-filters fieldset:has(legend:text-is('Status')) label.filter-chip", has_text="Done").click()
    expect(page.locator("tr[data-entity-type=task]")).to_have_count(0)
    open_assistant(page)
    expect(label).to_have_text("Looking at the task list · 0 tasks shown, filtered")
    page.goto(f"{live_server.url}/tasks/new/")
    open_assistant(page)
    expect(label).to_have_text("Looking at the task list")
    shot(page, f"looking-at-{width}")
    assert_accessible(page)


def test_alt_shift_a_shows_and_hides_the_assistant(page: Page, live_server: Any, width: str, alice: User) -> None:
    log_in(page, live_server.url, "alice")
    toggle = page.locator("#assistant-toggle")
    expect(toggle).to_have_attribute("aria-keyshortcuts", "Alt+Shift+A")
    panel = page.locator("#assistant")
    # It starts open on a desktop and closed on a phone: the shortcut flips it either way.
    starts_open = width == "desktop"
    expect(panel).to_be_visible() if starts_open else expect(panel).to_be_hidden()
    page.keyboard.press("Alt+Shift+KeyA")
    expect(panel).to_be_hidden() if starts_open else expect(panel).to_be_visible()
    if starts_open:
        expect(toggle).to_be_focused()
        page.keyboard.press("Alt+Shift+KeyA")
        expect(panel).to_be_visible()
    expect(page.locator("#assistant-message")).to_be_focused()
    # From inside the input too, and nothing is typed into it.
    page.keyboard.press("Alt+Shift+KeyA")
    expect(panel).to_be_hidden()
    expect(toggle).to_be_focused()
    page.keyboard.press("Alt+Shift+KeyA")
    expect(panel).to_be_visible()
    expect(page.locator("#assistant-message")).to_have_value("")
