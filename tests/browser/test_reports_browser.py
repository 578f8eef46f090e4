"""Weekly report and delay risk in a real Chromium: sidebar answer, full page, Markdown download, chart."""
from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agent.models import Run
from agent.run.service import run_continue
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create, task_update
from tests.celery_config import celery_configured
from tests.reports.fixture import clock_at

from .test_pages_browser import log_in

pytestmark = pytest.mark.browser
SHOTS = Path("test-results")


@pytest.fixture
def last_week(monkeypatch: pytest.MonkeyPatch, alice: User, carol: User, website: Project) -> list[Task]:
    """Work done a week ago: three tasks completed, two overdue and one blocked at the week's end."""
    real_now = timezone.now()
    then = real_now - timedelta(days=7)
    today = timezone.localdate()
    with clock_at(monkeypatch, then):
        done = [task_create(actor=alice, project=website, title=f"Ship page {n}", assignee=carol) for n in range(3)]
        for task in done:
            task_update(actor=alice, task=task, status="done")
        late = [task_create(actor=alice, project=website, title=f"Late review {n}", assignee=alice,
                            due_date=today - timedelta(days=12 + n)) for n in range(2)]
        stuck = task_create(actor=alice, project=website, title="Waiting on legal", status="blocked",
                            due_date=today + timedelta(days=2))
    return [*done, *late, stuck]


@pytest.fixture
def queued(settings: Any) -> Any:
    """Every report goes to the background, and no worker takes it until the test says so."""
    settings.REPORT_SYNC_MAX_TASKS = 1
    with celery_configured(task_always_eager=False, broker_url="memory://"):
        yield


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def test_weekly_report_from_home_to_the_full_page_and_its_download(
        page: Page, live_server: Any, alice: User, last_week: list[Task], queued: None) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    log_in(page, live_server.url, "alice")
    page.click("#assistant [data-assistant-action=weekly_report]")
    run = page.locator("#assistant-transcript .run").last
    expect(run).to_have_class("run run-running")
    expect(run.locator(".run-progress [role=progressbar]")).to_have_attribute("aria-valuenow", "0")
    _shot(page, "weekly-report-running-1440.png")
    page.reload()  # the run is still there, still progressing
    run = page.locator("#assistant-transcript .run").last
    expect(run).to_have_class("run run-running")
    # The worker's part, done here: the sidebar keeps polling the run until the report is there.
    run_continue(run_id=Run.objects.get().pk)
    expect(run).to_have_class("run run-done", timeout=10_000)
    expect(run.locator(".run-reply")).to_contain_text("3 tasks completed")
    expect(run.locator(".run-figures")).to_contain_text("Completed3")
    _shot(page, "weekly-report-sidebar-1440.png")

    run.locator("[data-report-link]").click()
    expect(page).to_have_url(re.compile(r"/reports/weekly/\?week=\d{4}-W\d{2}$"))
    expect(page.locator("#list-completed li")).to_have_count(3)
    expect(page.locator("#list-completed a").first).to_have_attribute("href", re.compile(r"^/tasks/\d+/$"))
    _shot(page, "weekly-report-page-1440.png")
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "weekly-report-page-390.png")

    with page.expect_download() as info:
        page.click("[data-report-download]")
    markdown = Path(info.value.path()).read_text()
    shown = {label: page.locator(".stat", has_text=label).locator(".stat-num").inner_text()
             for label in ("Completed", "Overdue", "Blocked")}
    assert shown == {"Completed": "3", "Overdue": "2", "Blocked": "1"}
    for label, count in shown.items():
        assert re.search(rf"^\| {label.lower()} \| {count} \| \d+ \|$", markdown, re.MULTILINE), label


def test_tasks_at_risk_draws_a_chart_with_a_table_for_screen_readers(
        page: Page, live_server: Any, alice: User, website: Project, last_week: list[Task]) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/")
    panel_chart = page.locator("#risk-panel canvas[data-rendered='1']")
    expect(panel_chart).to_have_count(1)
    page.click("#assistant [data-assistant-action=risk_analysis]")
    run = page.locator("#assistant-transcript .run").last
    expect(run).to_have_class("run run-done")
    expect(run.locator("canvas[data-rendered='1']")).to_have_count(1)
    table = run.locator("figure.risk-chart table")
    expect(table.locator("tbody tr")).to_have_count(3)  # two overdue, one blocked
    expect(table.locator("caption")).to_contain_text("Risk score by task")
    expect(run.locator(".risk-list li").first).to_contain_text("Late review 1")
    _shot(page, "risk-1440.png")
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "risk-390.png")
