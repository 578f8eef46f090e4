"""crud answers in the language of the message: the same keys, titles and counts, Chinese words around them."""
from __future__ import annotations

from typing import Any

from tasks.models import Task
from tasks.services import task_create
from tests.helpers import ask


def _page(task: Task) -> dict[str, Any]:
    return {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk},
            "routeParams": {"projectId": task.project_id, "taskId": task.pk}}


def test_an_update_asked_in_chinese_is_answered_in_chinese(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page", assignee=alice, status="in_progress")
    body = ask(alice, f"把任务{task.pk}标记为完成", _page(task))
    assert body["status"] == "done", body
    assert body["reply"] == f"已更新 {task.key} “Fix login page”：状态 已完成。"
    again = ask(alice, f"把任务{task.pk}标记为完成", _page(task))
    assert again["reply"] == f"{task.key} “Fix login page” 已经是状态 已完成，什么都没有改。"


def test_the_same_update_in_english_keeps_its_english_words(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    body = ask(alice, f"set task {task.pk} to P0", _page(task))
    assert body["reply"] == f"Updated {task.key} “Fix login page”: priority P0."


def test_a_create_asked_in_chinese_is_answered_in_chinese(alice: Any, website: Any) -> None:
    page = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}
    body = ask(alice, "新建任务“写发布说明”", page)
    created = Task.objects.get()
    assert created.title == "写发布说明"
    assert body["reply"] == f"已创建 {created.key} “写发布说明”。"


def test_a_refused_or_unclear_chinese_delete_is_answered_in_chinese(alice: Any, dave: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Old banner")
    refused = ask(dave, f"删除任务 {task.key}", _page(task))
    assert refused["status"] == "error" and refused["error_code"] == "forbidden", refused
    assert refused["reply"] == "你能查看 “Old banner”，但不能修改它，所以不能删除。"
    missing = ask(alice, "删除任务 WEB-999", {"page": "home", "origin": "sidebar"})
    assert missing["reply"] == "在你的项目中找不到这个任务，什么都没有改。", missing
    asked = ask(alice, f"删除任务 {task.key}", _page(task))
    assert asked["reply"] == f"请确认删除 {task.key} “Old banner”。"
    assert Task.objects.filter(pk=task.pk).exists()
