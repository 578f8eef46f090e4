"""Around an answer, in a real Chromium at both sizes: a Chinese answer's whole chrome is Chinese (Next:,
its chips, Copy, Edit, Retry, details, the feedback buttons), dates read as the page writes them, a
create says the due date and priority it understood, and thumbs down with a reason is stored."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agent.models import RunFeedback
from pm_assistant.dates import date_shown
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_trace_api import route_json
from tests.llm_stub import LLMStub

from .shell import assert_accessible, open_assistant, shot, wait_until
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def _ask(page: Page, text: str) -> Any:
    open_assistant(page)
    page.fill("#assistant-message", text)
    page.press("#assistant-message", "Enter")
    run = page.locator("#assistant-transcript article.run-done[id^=run-]").last
    expect(run.locator(".run-reply")).to_be_visible(timeout=15_000)
    return run


def test_a_chinese_answer_has_chinese_chrome_and_the_pages_dates(page: Page, live_server: Any, width: str,
                                                                 openai_settings: LLMStub, alice: User,
                                                                 website: Project) -> None:
    due = timezone.localdate() + timedelta(days=5)
    task_create(actor=alice, project=website, title="Write the release notes", assignee=alice, due_date=due)
    openai_settings.push_json(route_json("query", assignee_me=True))
    openai_settings.push_text("你有一个未完成的任务。")
    log_in(page, live_server.url, "alice")
    run = _ask(page, "我在做哪些任务？")

    footer = run.locator(".run-meta")
    for words in ("复制", "编辑", "重试", "详情"):
        expect(footer).to_contain_text(words)
    expect(footer).not_to_contain_text("Copy")
    expect(footer).not_to_contain_text("Retry")
    follow = run.locator(".run-follow-ups")
    expect(follow).to_contain_text("下一步：")
    expect(follow).not_to_contain_text("Next:")
    expect(follow.locator(".chip").first).not_to_have_text("My overdue tasks")
    # The answer's date as the page beside it writes it.
    expect(run.locator(".run-items time")).to_contain_text(date_shown(due))
    expect(run.locator(".run-items")).not_to_contain_text(due.isoformat())
    shot(page, f"chinese-chrome-{width}")
    assert_accessible(page)

    # Feedback: thumbs down, then a reason; stored on the run and pressed.
    run.locator(".run-rate").nth(1).click()
    expect(run.locator(".run-feedback")).to_contain_text("谢谢，已记录。")
    run.locator(".run-feedback-reason input[name=reason]").fill("少了截止日期")
    run.locator(".run-feedback-reason button").click()
    expect(run.locator(".run-rate").nth(1)).to_have_attribute("aria-pressed", "true")
    assert wait_until(page, lambda: RunFeedback.objects.filter(reason="少了截止日期").exists())
    feedback = RunFeedback.objects.get()
    assert (feedback.rating, feedback.reason) == ("down", "少了截止日期")
    shot(page, f"feedback-{width}")
    assert_accessible(page)


def test_a_create_says_the_due_date_and_priority_it_understood(page: Page, live_server: Any, width: str,
                                                               openai_settings: LLMStub, alice: User,
                                                               website: Project) -> None:
    due = timezone.localdate() + timedelta(days=9)
    openai_settings.push_json(route_json("crud", operation="create", title="Write the notes",
                                         due_date=due.isoformat(), priority="P1"))
    log_in(page, live_server.url, "alice", f"/projects/{website.pk}/")
    run = _ask(page, f'create task "Write the notes" due {due.isoformat()} P1')
    task = Task.objects.get(title="Write the notes")
    expect(run.locator(".run-reply")).to_contain_text(
        f"Created {task.key} “Write the notes”: due {date_shown(due)}, priority P1.")
    shot(page, f"create-says-values-{width}")
    assert_accessible(page)
    assert json.loads(json.dumps(task.priority)) == "P1"
