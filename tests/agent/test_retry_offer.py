"""Retry under a quick button's answer is offered only for a button that reads: pressed again on another
task's page or over another filter, a writing button would change tasks the user never chose."""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agent.routing.quick_actions import QUICK_ACTIONS, READING_ACTIONS
from projects.models import Project
from tasks.services import task_create


def _press(user: User, action: str, page: dict[str, Any]) -> str:
    client = Client()
    client.force_login(user)
    response = client.post("/assistant/request/", {"action": action, "page_context": json.dumps(page)})
    assert response.status_code == 200, response.content
    return response.content.decode()


def test_the_reading_actions_are_the_buttons_that_change_no_task() -> None:
    buttons = [entry for entries in QUICK_ACTIONS.values() for entry in entries]
    assert READING_ACTIONS == {entry.action for entry in buttons if not entry.changes_tasks}
    assert {"mark_done", "delete_task", "mark_visible_done", "decompose_task"}.isdisjoint(READING_ACTIONS)


@pytest.mark.parametrize(("action", "offered"), [("my_overdue", True), ("weekly_report", True)])
def test_a_reading_buttons_answer_offers_retry(alice: User, website: Project, action: str, offered: bool) -> None:
    html = _press(alice, action, {"page": "home", "origin": "workbench"})
    assert (f'data-retry-action="{action}"' in html) is offered


def test_a_writing_buttons_answer_offers_no_retry(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship it")
    html = _press(alice, "mark_done", {"page": "task_detail", "origin": "quick_button",
                                       "routeParams": {"taskId": task.pk}})
    assert "Ship it" in html and "data-retry-action" not in html
