"""Where focus goes in a real Chromium: in-place editors, a moved board card, Undo in the assistant."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import VIEWPORTS, assert_accessible, focused, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def task(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Book the venue", description="Seats for forty.")


def test_an_editor_takes_focus_and_gives_it_back(page: Page, live_server: Any, width: str, task: Task) -> None:
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    for name, field in (("title", "input[name=title]"), ("description", "textarea"), ("priority", "select"),
                        ("due_date", "input[name=due_date]")):
        page.click(f"#field-{name} .btn-edit")
        expect(page.locator(f"#field-{name} {field}")).to_be_focused()
        # Escape works at once: focus is in the editor, not on the hidden CSRF input.
        page.keyboard.press("Escape")
        expect(page.locator(f"#field-{name}.is-editing")).to_have_count(0)
        expect(page.locator(f"#field-{name} .btn-edit")).to_be_focused()

    page.click("#field-priority .btn-edit")
    page.select_option("#field-priority select", "P0")
    page.click("#field-priority button[type=submit]")
    expect(page.locator("#field-priority .priority")).to_have_text("P0")
    expect(page.locator("#field-priority .btn-edit")).to_be_focused()

    page.click("#field-progress .btn-edit")
    page.fill("#field-progress input[name=progress]", "140")
    page.keyboard.press("Enter")
    expect(page.locator("#field-progress .field-error")).to_contain_text("less than or equal to 100")
    expect(page.locator("#field-progress input[name=progress]")).to_be_focused()
    assert_accessible(page)
    shot(page, f"focus-editor-error-{width}")
    page.fill("#field-progress input[name=progress]", "40")
    page.keyboard.press("Enter")
    expect(page.locator("#field-progress .progress-num")).to_have_text("40%")
    expect(page.locator("#field-progress .btn-edit")).to_be_focused()
    task.refresh_from_db()
    assert (task.priority, task.progress) == ("P0", 40)


def test_a_moved_board_card_keeps_focus_on_its_status(page: Page, live_server: Any, width: str,
                                                      task: Task, website: Project) -> None:
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/?view=board")
    select = page.locator(f"#status-{task.pk}")
    select.focus()
    select.select_option("in_progress")
    expect(page.locator(f"#board-cards-in_progress #card-{task.pk}")).to_be_visible()
    expect(select).to_be_focused()
    # The keyboard carries on from there: the next move needs no click.
    select.select_option("done")
    expect(page.locator(f"#board-cards-done #card-{task.pk}")).to_be_visible()
    expect(select).to_be_focused()
    assert_accessible(page)


def test_a_card_that_leaves_the_tab_hands_focus_to_its_neighbour(page: Page, live_server: Any, width: str,
                                                                 alice: User, website: Project) -> None:
    for n in range(2):
        task_create(actor=alice, project=website, title=f"Hang banner {n}", status="in_progress")
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/?tab=in_progress&view=board")
    cards = page.locator("#board-cards-in_progress article.card")
    expect(cards).to_have_count(2)
    leaving = cards.first.locator("select")
    staying = cards.last.locator("select")
    staying_id = staying.get_attribute("id")
    leaving.focus()
    leaving.select_option("done")  # the In progress tab shows no done card
    expect(cards).to_have_count(1)
    expect(page.locator(f"#{staying_id}")).to_be_focused()


def test_undo_in_the_assistant_leaves_focus_on_its_reply(page: Page, live_server: Any, width: str,
                                                         alice: User, website: Project) -> None:
    for n in range(2):
        task_create(actor=alice, project=website, title=f"Proofread chapter {n}")
    log_in(page, live_server.url, "alice", "/tasks/?status=todo")
    open_assistant(page)
    page.click("#assistant [data-assistant-action=mark_visible_done]")
    run = page.locator("#assistant-transcript .run-done").last
    run.get_by_role("button", name="Undo").click()
    expect(page.locator("#assistant-transcript .run-undone")).to_have_count(1)
    expect(page.locator("tr[data-entity-id]")).to_have_count(2)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#assistant-transcript')")
    assert focused(page)["cls"].startswith("run "), focused(page)
    expect(page.locator("#assistant-transcript .run").last).to_be_focused()
    shot(page, f"focus-after-undo-{width}")


def test_a_row_action_after_a_refresh_returns_focus_at_once(page: Page, live_server: Any, alice: User,
                                                            website: Project) -> None:
    """A page refresh that has ended does not hold back a later focus return (it waited three seconds)."""
    page.set_viewport_size(VIEWPORTS["desktop"])
    tasks = [task_create(actor=alice, project=website, title=f"Print poster {n}") for n in range(3)]
    log_in(page, live_server.url, "alice", "/tasks/")
    # A change made in the assistant refreshes the rows (tasks-changed) without a row to return to.
    page.click("#assistant [data-assistant-action=mark_visible_done]")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
    expect(page.locator("tr[data-entity-id]")).to_have_count(3)
    # A row action that changes nothing: a delete, rejected. Focus comes straight back to its button.
    delete = page.locator(f"tr[data-entity-id='{tasks[1].pk}'] [data-assistant-action=delete_task]")
    delete.click()
    page.locator("#assistant .confirm-card button:has-text('Reject')").click()
    expect(page.locator("#assistant .confirm-card")).to_have_count(0)
    expect(delete).to_be_focused(timeout=1_500)


def test_an_open_editor_keeps_its_draft_when_the_assistant_changes_the_task(
        page: Page, live_server: Any, width: str, task: Task) -> None:
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    page.click("#field-description .btn-edit")
    page.fill("#field-description textarea", "A draft not saved yet")
    open_assistant(page)
    page.click("#assistant .assistant-quick [data-assistant-action=mark_done]")
    # The page refreshes around the editor: the status is new, the draft is still there.
    expect(page.locator("#field-status .badge")).to_have_text("Done")
    expect(page.locator("#field-description textarea")).to_have_value("A draft not saved yet")
    if page.evaluate("() => document.body.classList.contains('assistant-drawer-open')"):
        page.click("#assistant [data-close-assistant]")  # the drawer covers the page on a phone
    page.click("#field-description button[type=submit]")
    expect(page.locator("#field-description")).to_contain_text("A draft not saved yet")
    task.refresh_from_db()
    assert (task.status, task.description) == ("done", "A draft not saved yet")


def test_tab_stays_in_the_open_drawer_on_a_phone(page: Page, live_server: Any, task: Task) -> None:
    page.set_viewport_size(VIEWPORTS["phone"])
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    open_assistant(page)
    page.focus("#assistant-message")
    inside = "() => document.getElementById('assistant').contains(document.activeElement)"
    for _ in range(25):  # more than the drawer's controls: round and round, never onto the page
        page.keyboard.press("Tab")
        assert page.evaluate(inside)
    for _ in range(25):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(inside)
    page.keyboard.press("Escape")
    expect(page.locator("#assistant")).to_be_hidden()
    page.keyboard.press("Tab")
    assert not page.evaluate(inside)


def test_a_card_decided_away_from_any_row_leaves_focus_on_its_reply(page: Page, live_server: Any, width: str,
                                                                    task: Task) -> None:
    """A card asked for in the sidebar has no row to go back to: its decided reply takes focus, not the page."""
    log_in(page, live_server.url, "alice", "/")
    open_assistant(page)
    page.fill("#assistant-message", f"delete task {task.pk}")
    page.click(".assistant-form button[type=submit]")
    page.locator("#assistant .confirm-card button:has-text('Reject')").click()
    expect(page.locator("#assistant .confirm-card")).to_have_count(0)
    expect(page.locator("#assistant-transcript .run").last).to_be_focused()
    assert Task.objects.filter(pk=task.pk).exists()


def test_the_toggle_moves_focus_into_the_drawer_it_opens(page: Page, live_server: Any, task: Task) -> None:
    page.set_viewport_size(VIEWPORTS["phone"])
    log_in(page, live_server.url, "alice", "/")
    page.click("#assistant-toggle")
    expect(page.locator("#assistant .assistant-title")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#assistant")).to_be_hidden()
    expect(page.locator("#assistant-toggle")).to_be_focused()
