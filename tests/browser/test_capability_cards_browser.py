"""What next, the project summary and the workload in a real Chromium, at the phone and the desktop size.

Each answer's card passes axe; the workload's bars are links to the task list filtered by that person,
and the ranked tasks and the summary's risks are links to the tasks.
"""
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
def team_tasks(alice: User, carol: User, website: Project) -> list[Task]:
    late = timezone.localdate() - timedelta(days=3)
    made = [task_create(actor=alice, project=website, title=f"Alice's task {n}", assignee=alice,
                        due_date=late if n < 2 else None, priority=f"P{n % 4}") for n in range(5)]
    made += [task_create(actor=alice, project=website, title=f"Carol's task {n}", assignee=carol,
                         due_date=late if n == 0 else None) for n in range(2)]
    made.append(task_create(actor=alice, project=website, title="Nobody's task"))
    return made


def _press(page: Page, action: str) -> Any:
    open_assistant(page)
    page.locator(f"#assistant [data-assistant-action={action}]").click()
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator("[data-looked-at]")).to_be_visible()
    return run


def test_the_workload_chart_links_each_bar_to_its_list_and_passes_axe(
        page: Page, live_server: Any, width: str, alice: User, website: Project, team_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/projects/{website.pk}/")
    run = _press(page, "workload")
    bars = run.locator(".workload-bars li")
    expect(bars).to_have_count(3)
    expect(bars.first).to_contain_text("alice")
    expect(run.locator("a.workload-row")).to_have_count(2)  # the unassigned bar has no list to open
    assert_accessible(page)
    shot(page, f"workload-{width}")
    run.locator("a.workload-row", has_text="carol").click()
    expect(page.locator("main")).to_contain_text("Carol's task 0")
    expect(page.locator("main")).not_to_contain_text("Alice's task 0")


def test_the_summary_and_what_next_cards_pass_axe(page: Page, live_server: Any, width: str, alice: User,
                                                 website: Project, team_tasks: list[Task]) -> None:
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/projects/{website.pk}/")
    run = _press(page, "project_summary")
    expect(run.locator(".run-figures dd").first).to_have_text("8")
    expect(run.locator(".risk-list a").first).to_be_visible()
    assert_accessible(page)
    shot(page, f"project-summary-{width}")

    page.goto(f"{live_server.url}/")
    run = _press(page, "what_next")
    expect(run.locator(".run-reply a")).to_have_count(5)
    assert_accessible(page)
    shot(page, f"what-next-{width}")
