"""Task breakdown in a real Chromium: Break down → plan card → uncheck a step → approve → subtasks appear."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Run
from agent.run.audit import run_audit
from projects.models import Project
from tasks.services import task_create

from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def test_break_down_uncheck_a_step_approve_and_the_subtasks_appear(page: Page, live_server: Any, alice: User,
                                                                   website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Publish the handbook",
                       description="- Collect the chapters\n- Copy-edit the text\n- Print the first run")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    expect(page.locator(".subtasks")).to_have_count(0)
    page.click("#assistant [data-assistant-action=decompose_task]")
    card = page.locator(".plan-card")
    expect(card).to_contain_text("Publish the handbook")
    expect(card).to_contain_text("offline planner")
    expect(card.locator(".plan-step")).to_have_count(3)
    card.locator(".plan-step[data-step=s2] input[type=checkbox]").uncheck()
    card.locator("button:has-text('Approve')").click()
    expect(page.locator(".run-done .run-reply").last).to_contain_text("Done 2 of 2 steps")
    # The page refreshed its content in place: no reload, the transcript is still there.
    subtasks = page.locator(".subtasks li")
    expect(subtasks).to_have_count(2)
    expect(page.locator(".subtasks")).to_contain_text("Collect the chapters")
    expect(page.locator(".subtasks")).to_contain_text("Print the first run")
    expect(page.locator(".subtasks")).not_to_contain_text("Copy-edit the text")
    expect(page.locator("#assistant-transcript .run")).to_have_count(1)
    assert sorted(task.subtasks.values_list("title", flat=True)) == ["Collect the chapters", "Print the first run"]
    assert run_audit(Run.objects.get()).passed


def test_the_row_action_opens_a_plan_card(page: Page, live_server: Any, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Clean the backlog and close stale bugs")
    log_in(page, live_server.url, "alice", "/tasks/")
    page.locator(f"tr[data-entity-id='{task.pk}'] [data-assistant-action=decompose_task]").click()
    card = page.locator(".plan-card")
    expect(card.locator(".plan-step")).to_have_count(2)
    expect(card).to_contain_text("Close stale bugs")
    card.locator("button:has-text('Reject')").click()
    expect(page.locator(".plan-card")).to_have_count(0)
    assert not task.subtasks.exists()


def test_unchecking_a_step_unchecks_the_steps_built_on_it(page: Page, live_server: Any, alice: User,
                                                          website: Project, settings: Any) -> None:
    from tests.llm_stub import LLMStub

    task = task_create(actor=alice, project=website, title="Organise the offsite")
    bind = {"from_step": "selected", "path": "$.id"}
    steps = [{"id": "s1", "tool": "create_subtask", "args": {"parent_id": bind, "title": "Book the venue",
                                                               "due_date": None, "priority": None, "assignee": None}},
             {"id": "s2", "tool": "create_subtask", "args": {"parent_id": {"from_step": "s1", "path": "$.id"},
                                                               "title": "Sign the venue contract", "due_date": None,
                                                               "priority": None, "assignee": None}},
             {"id": "s3", "tool": "create_subtask", "args": {"parent_id": bind, "title": "Plan the agenda",
                                                               "due_date": None, "priority": None, "assignee": None}}]
    with LLMStub() as stub:
        settings.LLM_PROVIDER, settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL = "openai", "k", stub.base_url
        stub.push_json({"steps": steps})
        log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
        page.click("#assistant [data-assistant-action=decompose_task]")
        card = page.locator(".plan-card")
        expect(card).to_contain_text("needs step s1")
        card.locator(".plan-step[data-step=s1] input[type=checkbox]").uncheck()
        expect(card.locator(".plan-step[data-step=s2] input[type=checkbox]")).not_to_be_checked()
        expect(card.locator(".plan-step[data-step=s3] input[type=checkbox]")).to_be_checked()
        card.locator("button:has-text('Approve')").click()
        expect(page.locator(".subtasks li")).to_have_count(1)
        assert list(task.subtasks.values_list("title", flat=True)) == ["Plan the agenda"]
        assert stub.calls == 1
