"""A refused Undo is said in the sidebar in the language of the run's message: in English the same words
as the API's refusal, in Chinese the same facts (keys, titles, values, who changed what) in Chinese."""
from __future__ import annotations

import html as markup
import json
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from agent.models import Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create, task_delete, task_update


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _mark_done(user: User, task: Task, message: str) -> Run:
    page = {"page": "home", "origin": "sidebar"}
    response = _client(user).post("/assistant/request/", {"message": message, "page_context": json.dumps(page)})
    assert response.status_code == 200, response.content
    run = Run.objects.latest("created_at")
    assert run.undo_until is not None
    return run


def _refusal(user: User, run: Run) -> str:
    response = _client(user).post(f"/assistant/runs/{run.pk}/undo/")
    assert response.status_code == 409, response.content
    found = re.search(r'class="run-undo-refused"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    assert found, response.content
    return markup.unescape(found.group(1))


def _api_refusal(user: User, run: Run) -> str:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(f"/api/assistant/runs/{run.pk}/undo/")
    assert response.status_code in (409, 410), response.content
    return str(response.json()["error"]["message"])


def _changed(user: User, task: Task, run: Run) -> None:
    task_update(actor=user, task=Task.objects.get(pk=task.pk), status="in_progress")


def _undone(user: User, task: Task, run: Run) -> None:
    assert _client(user).post(f"/assistant/runs/{run.pk}/undo/").status_code == 200


def _expired(user: User, task: Task, run: Run) -> None:
    Run.objects.filter(pk=run.pk).update(undo_until=timezone.now() - timedelta(minutes=1))


def _deleted(user: User, task: Task, run: Run) -> None:
    task_delete(actor=user, task=Task.objects.get(pk=task.pk))


CASES: dict[str, Callable[[User, Task, Run], None]] = {
    "changed": _changed, "undone": _undone, "expired": _expired, "deleted": _deleted}


@pytest.mark.parametrize("case", CASES)
def test_an_english_refusal_says_what_the_api_says(alice: User, website: Project, case: str) -> None:
    task = task_create(actor=alice, project=website, title="Ship it")
    run = _mark_done(alice, task, f"mark {task.key} done")
    CASES[case](alice, task, run)
    said = _refusal(alice, run)
    assert said == _api_refusal(alice, run)


@pytest.mark.parametrize(("case", "expected"), [
    ("changed", "没有恢复任何内容：{key} 的状态被 alice 改过了（现在是“in_progress”）。"),
    ("undone", "这次操作已经撤销过了。"),
    ("expired", "已超过撤销期限：只能在 {until} 之前撤销。"),
    ("deleted", "没有恢复任何内容：“Ship it”之后被删除了。"),
])
def test_a_chinese_refusal_says_the_same_facts_in_chinese(alice: User, website: Project, case: str,
                                                          expected: str) -> None:
    task = task_create(actor=alice, project=website, title="Ship it")
    run = _mark_done(alice, task, f"把 {task.key} 标记为完成")
    CASES[case](alice, task, run)
    run.refresh_from_db()
    until = f"{timezone.localtime(run.undo_until):%H:%M}" if run.undo_until else ""
    assert _refusal(alice, run) == expected.format(key=task.key, until=until)


def test_a_chinese_refusal_of_a_run_that_created_a_task_says_so(alice: User, website: Project) -> None:
    from agent.words.undo import undo_refusal_words
    from tasks.revert import RevertRefused

    run = Run(message="创建任务")
    refused = RevertRefused("This run created or deleted tasks, which cannot be undone.", code="not_undoable",
                            creates_or_deletes=True)
    assert undo_refusal_words(refused, run=run, language="zh") == "这次操作创建或删除了任务，这些无法撤销。"
    assert undo_refusal_words(refused, run=run, language="en") == refused.message
