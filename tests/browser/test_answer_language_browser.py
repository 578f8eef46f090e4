"""Offline answers in the language of the question, in a real Chromium: Chinese questions get Chinese
answers around the server's figures and keys; the offline badge says which languages it writes."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def ask(page: Page, message: str, answers: int) -> None:
    page.fill("#assistant-message", message)
    page.click(".assistant-form button[type=submit]")
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(answers)


def test_chinese_questions_get_chinese_answers_with_the_servers_figures(page: Page, live_server: Any, width: str,
                                                                       alice: User, website: Project) -> None:
    late = timezone.localdate() - timedelta(days=2)
    keys = [task_create(actor=alice, project=website, assignee=alice, due_date=late, title=f"Late {n}").key
            for n in range(2)]
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    expect(page.locator(".assistant-badge.offline")).to_have_attribute(
        "title", "No language model is configured: routing uses keyword rules and answers use templates, "
        "written in English or in Chinese as you ask.")
    ask(page, "我的逾期任务", 1)
    reply = page.locator("#assistant-transcript .run-done .run-reply")
    expect(reply.last).to_have_text(f"共 2 个分配给你的逾期任务：{keys[0]} “Late 0”；{keys[1]} “Late 1”。")
    ask(page, "本周周报", 2)
    expect(reply.last).to_contain_text("本周截至目前，")
    expect(reply.last).to_contain_text("新建 2 个（上周 0 个）")
    expect(reply.last).to_contain_text("2 个逾期")
    shot(page, f"chinese-answers-{width}")
    assert_accessible(page)
