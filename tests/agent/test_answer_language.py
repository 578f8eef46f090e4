"""Offline answers in the language of the question: a Chinese question gets the Chinese template, with the
same figures and task keys the server read for the English one; a quick button answers in English."""
from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from agent.words.language import language_of
from projects.models import Project
from tasks.services import task_create

HOME = {"page": "home", "origin": "sidebar"}


def _ask(user: User, **body: Any) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(user)
    context = {"page": "home", "origin": "workbench"} if "action" in body else HOME
    response = client.post("/api/assistant/requests/", {"page_context": context, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:-\d+)*", text)


@pytest.mark.parametrize(("message", "language"), [
    ("我的逾期任务", "zh"), ("本周周报", "zh"), ("Website Redesign 项目里我的逾期任务", "zh"), ("WEB-25 的状态", "zh"),
    ("Website Redesign 有哪些逾期任务？", "zh"), ("把 WEB-25 标记为完成", "zh"), ("“写文档”", "zh"),
    ("show my overdue tasks", "en"), ("show tasks in 网站", "en"), ('create task "写发布说明" in Website', "en"),
    ("rename WEB-3 to “更新文档说明”", "en"), ("", "en"), (None, "en"),
    ("Create task 写文档", "en"), ("mark 登录页 done", "en"), ("Show me tasks in 官网改版", "en"),
    ("新建任务 'Fix the login page crash on Safari'", "zh"), ("这个任务分配给bob", "zh"),
])
def test_the_language_of_a_message(message: str | None, language: str) -> None:
    assert language_of(message) == language


@pytest.fixture
def overdue(alice: User, website: Project) -> list[str]:
    late = timezone.localdate() - timedelta(days=2)
    return [task_create(actor=alice, project=website, assignee=alice, due_date=late, title=f"Late {n}").key
            for n in range(4)]


def test_my_overdue_tasks_in_chinese_names_the_same_keys_and_count(alice: User, overdue: list[str]) -> None:
    english = _ask(alice, message="show my overdue tasks")
    chinese = _ask(alice, message="我的逾期任务")
    assert chinese["route"]["capability"] == "query"
    assert chinese["reply"].startswith("共 4 个分配给你的逾期任务：")
    assert "，另有 1 个。" in chinese["reply"]
    assert english["reply"].startswith("4 overdue tasks assigned to you:")
    assert [i["key"] for i in chinese["data"]["items"]] == [i["key"] for i in english["data"]["items"]]
    for key in [i["key"] for i in english["data"]["items"]][:3]:
        assert key in chinese["reply"]
    # The quick button has no words to read: English, as the page.
    assert _ask(alice, action="my_overdue")["reply"].startswith("4 overdue tasks")


def test_no_overdue_tasks_in_chinese(alice: User, website: Project) -> None:
    assert _ask(alice, message="我的逾期任务")["reply"] == "没有分配给你的逾期任务。"


def test_the_weekly_report_in_chinese_has_the_english_reports_figures(alice: User, overdue: list[str]) -> None:
    english = _ask(alice, message="this week's report")
    chinese = _ask(alice, message="本周周报")
    assert chinese["route"]["capability"] == "weekly_report"
    assert chinese["data"]["report"]["counts"] == english["data"]["report"]["counts"]
    assert chinese["reply"].startswith("本周截至目前，") and "目前有 4 个任务未完成" in chinese["reply"]
    assert "completed" not in chinese["reply"]
    assert sorted(_numbers(chinese["reply"])) == sorted(_numbers(english["reply"]))


def test_the_risk_check_in_chinese_has_the_english_checks_figures(alice: User, overdue: list[str]) -> None:
    english = _ask(alice, message="which tasks are at risk")
    chinese = _ask(alice, message="哪些任务有延期风险")
    assert chinese["route"]["capability"] == "risk"
    assert "个未完成的任务中" in chinese["reply"] and "逾期 2 天" in chinese["reply"]
    # The same tasks, scores and points; only the factors' words are in the language of the question.
    def figures(data: dict[str, Any]) -> list[Any]:
        return [{**t, "made_of": None, "factors": [{**f, "words": None} for f in t["factors"]]}
                for t in data["risk"]["top"]]
    assert figures(chinese["data"]) == figures(english["data"])
    assert chinese["data"]["risk"]["top"][0]["factors"][0]["words"] == "逾期 2 天"
    assert english["data"]["risk"]["top"][0]["factors"][0]["words"] == "2 days overdue"
    assert "risk" not in chinese["reply"]
