"""The sidebar's words around an answer follow the language of the run's stored message: the delete and plan
cards, the labels of the task rows, the report's figures and the risk list say Chinese words for a Chinese
message (the keys, titles, counts and dates as the server read them) and English for an English one; a
refused request is said in the language it was asked in."""
from __future__ import annotations

import html as markup
import json
import re
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agent.models import Run
from pm_assistant.dates import date_shown
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.agent.test_llm_router import route_json
from tests.llm_stub import LLMStub

SIDEBAR = "/assistant/request/"
HOME = {"page": "home", "origin": "sidebar"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _ask(user: User, message: str, page: dict[str, Any] | None = None, status: int = 200) -> str:
    response = _client(user).post(SIDEBAR, {"message": message, "page_context": json.dumps(page or HOME)})
    assert response.status_code == status, response.content
    return response.content.decode()


def _text(html: str) -> str:
    """The words a person reads: tags dropped, spaces joined."""
    return markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _task_page(task: Task) -> dict[str, Any]:
    return {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk},
            "routeParams": {"projectId": task.project_id}}


def test_the_delete_card_of_a_chinese_message_says_chinese_words_around_the_servers_facts(
        alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Old banner")
    task_create(actor=alice, project=website, title="Banner copy", parent=task)
    text = _text(_ask(alice, f"删除任务 {task.key}"))
    for words in (f"请确认删除 {task.key} “Old banner”。",
                  "删除这个任务？", "任务", "状态", "待办", "项目", "子任务", "1 个子任务也会被删除：Banner copy",
                  "以上事实刚从数据库读取。删除后无法撤销。", f"删除 {task.key}", "拒绝"):
        assert words in text, words
    assert "Delete this task?" not in text and "Reject" not in text and "cannot be undone" not in text
    assert 'lang="zh"' in _ask(alice, f"删除任务 {task.key}")

    english = _text(_ask(alice, f"delete task {task.key}"))
    assert "Delete this task?" in english and f"Delete {task.key}" in english and "Reject" in english
    assert "删除" not in english.replace(f"删除任务 {task.key}", "")


def test_the_kept_answer_after_rejecting_a_chinese_card_is_chinese(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Old banner")
    _ask(alice, f"删除任务 {task.key}")
    run = Run.objects.filter(user=alice).latest("created_at")
    confirmation = run.confirmations.get()  # type: ignore[attr-defined]
    response = _client(alice).post(f"/assistant/runs/{run.pk}/confirm/",
                                   {"decision": "reject", "confirmation_id": str(confirmation.pk)})
    assert "已保留 “Old banner”：没有删除任何任务。" in _text(response.content.decode())
    # Deciding again is refused, in the language of the run's message as stored.
    again = _client(alice).post(f"/assistant/runs/{run.pk}/confirm/",
                                {"decision": "approve", "confirmation_id": str(confirmation.pk)})
    assert again.status_code == 409 and "这已经决定过了" in again.content.decode()


def test_the_plan_card_of_a_chinese_message_says_chinese_words_and_steps(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Publish the handbook",
                       description="- Collect the chapters\n- Copy-edit the text\n- Print the first run")
    html = _ask(alice, "把这个任务拆分成子任务", _task_page(task))
    text = _text(html)
    for words in ("把“Publish the handbook”拆分成子任务？", "负责人", "未分配", "现有子任务",
                  "在所选任务下创建子任务 “Collect the chapters”", "计划来自离线规划器（未使用模型）。",
                  "批准之前不会写入任何内容。", "批准并运行 3 个步骤", "拒绝"):
        assert words in text, words
    assert 'data-run-some="批准并运行 {kept}/{all} {steps}"' in html
    assert "Approve and run" not in text and "Break down" not in text

    run = Run.objects.filter(user=alice).latest("created_at")
    confirmation = run.confirmations.get()  # type: ignore[attr-defined]
    steps = [s["id"] for s in confirmation.facts["steps"]]
    response = _client(alice).post(f"/assistant/runs/{run.pk}/confirm/", {
        "decision": "approve", "confirmation_id": str(confirmation.pk), "plan_steps": steps, "keep_steps": steps})
    done = _text(response.content.decode())
    assert "已完成 3/3 个步骤。" in done and "已创建 “Collect the chapters”、" in done


def test_the_rows_under_a_chinese_query_answer_are_labelled_in_chinese(alice: User, website: Project) -> None:
    late = timezone.localdate() - timedelta(days=2)
    task = task_create(actor=alice, project=website, assignee=alice, due_date=late, title="Late one")
    html = _ask(alice, "我的逾期任务")
    assert f"截止 {date_shown(late)}" in html and 'title="已逾期"' in html and ">待办<" in html
    assert f"due {late.isoformat()}" not in html
    english = _ask(alice, "show my overdue tasks")
    assert f"due {date_shown(late)}" in english and 'title="Overdue"' in english and ">To do<" in english
    assert task.key in html


def test_the_single_task_brief_of_a_chinese_question_is_chinese(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Fix login", priority="P1")
    text = markup.unescape(re.sub(r"<[^>]+>", "", _ask(alice, "这个任务是关于什么的？", _task_page(task))))
    assert f"{task.key} “Fix login”（Website Redesign）：待办，P1，未分配。" in text


def test_the_weekly_report_figures_of_a_chinese_question_are_labelled_in_chinese(
        alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="New one")
    text = _text(_ask(alice, "本周周报"))
    for words in ("已完成", "新建", "逾期", "受阻", "的完整报告"):
        assert words in text, words
    assert "Completed" not in text and "Open the full report" not in text
    # Which week it is, above the figures, in the same words as the paragraph.
    # The week is said once, by the answer; the figures' card under it does not repeat it.
    assert re.search(r"本周截至目前，\d{4}-W\d{2}（自 \d{4}-\d{2}-\d{2} 起），", text), text
    assert text.count("本周截至目前") == 1, text
    assert "This week so far" not in text
    assert "This week so far" in _text(_ask(alice, "this week's report"))


def test_undo_under_a_chinese_change_is_offered_and_reported_in_chinese(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship it")
    html = _ask(alice, f"把 {task.key} 标记为完成")
    text = _text(html)
    assert "撤销 可撤销至" in text and "Undo" not in text and "until" not in text
    run = Run.objects.latest("created_at")
    undone = _text(_client(alice).post(f"/assistant/runs/{run.pk}/undo/").content.decode())
    assert "已撤销：1 个任务恢复了之前的值。" in undone and "Undone" not in undone
    task.refresh_from_db()
    assert task.status == "todo"
    english = _text(_ask(alice, f"mark {task.key} done"))
    assert "Undo until" in english and "撤销" not in english


def test_the_risk_list_of_a_chinese_question_is_labelled_in_chinese(alice: User, website: Project) -> None:
    late = timezone.localdate() - timedelta(days=5)
    task_create(actor=alice, project=website, assignee=alice, due_date=late, title="Very late")
    html = _ask(alice, "哪些任务有延期风险")
    text = _text(html)
    assert "逾期 5 天" in text and "构成" in text and "分数" in text and "已逾期 +" in text
    assert 'title="高风险"' in html or 'title="中风险"' in html or 'title="低风险"' in html
    assert '<figcaption class="risk-axis">风险分数（0–100）：各因素的分数</figcaption>' in html
    assert 'title="+' in html and "分，来自数据库和服务器时钟" in html
    assert "Made of" not in text and "5 days overdue" not in text
    chart = json.loads(re.search(r'<script id="risk-[^"]+-data" type="application/json">(.*?)</script>', html,
                                 re.S).group(1))  # type: ignore[union-attr]
    assert chart["factors"][0]["label"] == "已逾期"


def test_a_refused_chinese_message_is_answered_in_chinese(alice: User, website: Project) -> None:
    text = _text(_ask(alice, "我的逾期任务\x07", status=400))
    assert "没有成功。" in text and "控制字符" in text and "That didn't work." not in text
    english = _text(_ask(alice, "my overdue tasks\x07", status=400))
    assert "That didn't work." in english and "invisible control character" in english


def test_a_chinese_delete_of_a_missing_key_is_refused_in_chinese(alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="Only one")
    text = _text(_ask(alice, "删除任务 WEB-999"))
    assert "你的项目中没有任务 WEB-999，什么都没有改。" in text or "在你的项目中找不到这个任务" in text, text


def test_a_chinese_card_is_chinese_again_when_the_page_shows_the_conversation_again(
        alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Old banner")
    client = _client(alice)
    asked = client.post(SIDEBAR, {"message": f"删除任务 {task.key}", "page_context": json.dumps(HOME)})
    assert "删除这个任务？" in asked.content.decode()
    shown = _text(client.get("/").content.decode())
    assert "删除这个任务？" in shown and f"删除 {task.key}" in shown and "拒绝" in shown
    assert "Delete this task?" not in shown


def test_the_card_of_a_change_a_chinese_message_did_not_ask_for_is_chinese(
        openai_settings: LLMStub, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Fix login")
    openai_settings.push_json(route_json("crud", operation="update", status="done", scope="selected"))
    text = _text(_ask(alice, "总结一下这个任务", _task_page(task)))
    for words in (f"请确认：修改 {task.key} “Fix login”：状态 已完成。你的消息没有明确要求这个修改",
                  "做这个修改？", f"修改 {task.key} “Fix login”：状态 已完成", "当前状态", "待办",
                  "之后 10 分钟内可以撤销。", "批准", "拒绝"):
        assert words in text, words
    assert "Make this change?" not in text and "Approve" not in text
