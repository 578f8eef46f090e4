"""The workload answer's "Reassign" move in a real Chromium, at the phone and the desktop size: pressed, it stops
on the card that states the task, from whom and to whom; Approve reassigns the task."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def overloaded(alice: User, carol: User, website: Project) -> Task:
    """alice has 6 open tasks beside carol's 2 (overloaded); the overdue one is her most urgent."""
    late = task_create(actor=alice, project=website, title="Overdue one", assignee=alice,
                       due_date=timezone.localdate() - timedelta(days=2))
    for n in range(5):
        task_create(actor=alice, project=website, title=f"Alice's task {n}", assignee=alice)
    for n in range(2):
        task_create(actor=alice, project=website, title=f"Carol's task {n}", assignee=carol)
    return late


def test_the_reassign_move_stops_on_the_card_and_approve_reassigns(page: Page, live_server: Any, width: str,
                                                                   alice: User, website: Project,
                                                                   overloaded: Task) -> None:
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/projects/{website.pk}/")
    open_assistant(page)
    page.locator("#assistant [data-assistant-action=workload]").click()
    answer = page.locator("#assistant-transcript .run-done").last
    move = answer.get_by_role("button", name=f"Reassign {overloaded.key} to carol")
    expect(move).to_be_visible()
    move.click()
    card = page.locator("#assistant-transcript .confirm-card").last
    expect(card).to_contain_text(f"Change {overloaded.key} “Overdue one”: assignee alice → carol")
    expect(card).to_contain_text("The assistant proposed this change")
    assert_accessible(page)
    shot(page, f"reassign-card-{width}")
    overloaded.refresh_from_db()
    assert overloaded.assignee == alice
    card.get_by_role("button", name="Approve").click()
    expect(page.locator("#assistant-transcript .confirm-card")).to_have_count(0)
    expect(page.locator("#assistant-transcript .run-done").last.locator(".run-reply")).to_contain_text(
        "assigned to carol")
    overloaded.refresh_from_db()
    assert overloaded.assignee is not None and overloaded.assignee.username == "carol"
