"""Offline answers in the language of the question, in a real Chromium: Chinese questions get Chinese
answers around the server's figures and keys; the offline badge says which languages it writes."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from pm_assistant.dates import date_shown
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


def test_chinese_help_and_undo_are_chinese(page: Page, live_server: Any, width: str, alice: User,
                                           website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship it")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    open_assistant(page)
    ask(page, "你能做什么？", 1)
    reply = page.locator("#assistant-transcript .run-done .run-reply")
    expect(reply.last).to_contain_text("本页的快捷操作：“Mark done”、“Break down”、“Delete task”。")
    expect(reply.last).to_contain_text("周报：“上周的周报”")
    expect(reply.last).not_to_contain_text("for example")
    ask(page, "把这个任务标记为完成", 2)
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-undo")).to_contain_text("可撤销至")
    assert_accessible(page)
    shot(page, f"chinese-help-undo-{width}")
    run.get_by_role("button", name="撤销").click()
    expect(page.locator("#assistant-transcript .run-undone")).to_have_text("已撤销：1 个任务恢复了之前的值。")


def send(page: Page, message: str) -> None:
    page.fill("#assistant-message", message)
    page.click(".assistant-form button[type=submit]")


def test_a_chinese_delete_card_says_chinese_words_around_the_servers_facts(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Old banner")
    task_create(actor=alice, project=website, title="Banner copy", parent=task)
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    send(page, f"删除任务 {task.key}")
    card = page.locator(".confirm-card").last
    expect(page.locator("#assistant-transcript .run-reply").last).to_have_text(f"请确认删除 {task.key} “Old banner”。")
    expect(card.get_by_role("heading")).to_have_text("删除这个任务？")
    expect(card.locator("dt")).to_have_text(["任务", "状态", "项目", "子任务"])
    expect(card.locator("dd").nth(0)).to_have_text(f"Old banner {task.key}")
    expect(card.locator(".badge")).to_have_text("待办")
    expect(card.locator("dd").nth(3)).to_have_text("1 个子任务也会被删除：Banner copy")
    expect(card).to_contain_text("以上事实刚从数据库读取。删除后无法撤销。")
    expect(card.locator("[data-confirm-run]")).to_have_text(f"删除 {task.key}")
    expect(card.get_by_role("button", name="拒绝")).to_be_visible()
    expect(page.locator("#assistant-transcript .run .bubble-assistant").last).to_have_attribute("lang", "zh")
    assert_accessible(page)
    shot(page, f"chinese-delete-card-{width}")
    # Shown again with the conversation, the card keeps the language of the message stored with its run.
    page.reload()
    open_assistant(page)
    card = page.locator(".confirm-card").last
    expect(card.get_by_role("heading")).to_have_text("删除这个任务？")
    card.get_by_role("button", name="拒绝").click()
    expect(page.locator("#assistant-transcript .run-done .run-reply").last).to_have_text(
        "已保留 “Old banner”：没有删除任何任务。")
    assert_accessible(page)


def test_a_chinese_plan_card_says_chinese_words_and_counts_the_steps_in_chinese(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Publish the handbook",
                       description="- Collect the chapters\n- Copy-edit the text\n- Print the first run")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    open_assistant(page)
    send(page, f"把 {task.key} 拆分成子任务")
    card = page.locator(".plan-card").last
    expect(card.get_by_role("heading")).to_have_text("把“Publish the handbook”拆分成子任务？")
    expect(card.locator("dt")).to_have_text(["任务", "状态", "负责人", "项目", "现有子任务"])
    expect(card.locator(".plan-step-words").first).to_have_text("在所选任务下创建子任务 “Collect the chapters”")
    expect(card).to_contain_text("计划来自离线规划器（未使用模型）。")
    approve = card.locator("[data-confirm-run]")
    expect(approve).to_have_text("批准并运行 3 个步骤")
    expect(card.get_by_role("button", name="拒绝")).to_be_visible()
    assert_accessible(page)
    shot(page, f"chinese-plan-card-{width}")
    card.locator(".plan-step[data-step=s2] input[type=checkbox]").uncheck()
    expect(approve).to_have_text("批准并运行 2/3 个步骤")
    approve.click()
    reply = page.locator("#assistant-transcript .run-done .run-reply").last
    expect(reply).to_contain_text("已完成 2/2 个步骤。")
    expect(reply).to_contain_text("已创建 “Collect the chapters”、“Print the first run”。")
    assert_accessible(page)


def test_a_chinese_single_task_question_overdue_list_and_risk_check_are_labelled_in_chinese(
        page: Page, live_server: Any, width: str, alice: User, website: Project) -> None:
    late = timezone.localdate() - timedelta(days=2)
    task = task_create(actor=alice, project=website, assignee=alice, due_date=late, title="Fix login", priority="P1")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    open_assistant(page)
    ask(page, "这个任务是关于什么的？", 1)
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".run-reply")).to_contain_text(
        f"{task.key} “Fix login”（Website Redesign）：待办，P1，截止 {date_shown(late)}（已逾期），负责人 alice。")
    ask(page, "我的逾期任务", 2)
    run = page.locator("#assistant-transcript .run-done").last
    row = run.locator(".run-items li").first
    expect(row.locator(".badge")).to_have_text("待办")
    expect(row.locator("time")).to_have_text(f"截止 {date_shown(late)}")
    expect(row.locator("time")).to_have_attribute("title", "已逾期")
    # The footer speaks the answer's language too (it was English under a Chinese answer).
    expect(run.locator(".run-meta")).not_to_have_attribute("lang", "en")
    expect(run.locator(".run-meta .run-tools")).to_contain_text("复制")
    assert_accessible(page)
    shot(page, f"chinese-labels-{width}")

    ask(page, "哪些任务有延期风险", 3)
    run = page.locator("#assistant-transcript .run-done").last
    expect(run.locator(".risk-why").first).to_contain_text("逾期 2 天")
    canvas = run.locator("canvas[data-rendered='1']")
    expect(canvas).to_have_count(1)
    series = canvas.evaluate("c => Chart.getChart(c).data.datasets.map(d => d.label)")
    assert "已逾期" in series
    expect(run.locator("figure.risk-chart figcaption")).to_have_text("风险分数（0–100）：各因素的分数")
    table = run.locator("figure.risk-chart table")
    expect(table.locator("caption")).to_contain_text("各任务的风险分数")
    expect(table.locator("thead th")).to_have_text(["任务", "分数", "等级", "构成"])
    expect(table.locator("tbody td").nth(2)).to_contain_text("已逾期 +")
    run.locator("figure.risk-chart").scroll_into_view_if_needed()
    assert_accessible(page)
    shot(page, f"chinese-risk-{width}")
