"""Shared helpers for the task-breakdown tests: pages, plans as a planner writes them, snapshots."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from agent.models import Run
from agent.run.audit import run_audit
from tasks.models import Task

URL = "/api/assistant/requests/"


def client(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def task_page(task: Task, origin: str = "quick_button") -> dict[str, Any]:
    return {"page": "task_list", "origin": origin, "selectedEntity": {"type": "task", "id": task.pk},
            "routeParams": {"projectId": task.project_id}}


def break_down(user: Any, task: Task, *, message: str | None = None) -> dict[str, Any]:
    body = {"message": message, "page_context": task_page(task, "sidebar")} if message else \
        {"action": "decompose_task", "page_context": task_page(task)}
    response = client(user).post(URL, body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def confirm(user: Any, run_id: str, decision: str = "approve", **extra: Any) -> Any:
    return client(user).post(f"/api/assistant/runs/{run_id}/confirm/", {"decision": decision, **extra}, format="json")


def bind(step: str = "selected", path: str = "$.id") -> dict[str, str]:
    return {"from_step": step, "path": path}


def in_days(days: int) -> str:
    return (timezone.localdate() + timedelta(days=days)).isoformat()


def create(sid: str, title: str, *, parent: dict[str, Any] | None = None, due: str | None = None,
           priority: str | None = None, assignee: str | None = None) -> dict[str, Any]:
    return {"id": sid, "tool": "create_subtask", "args": {"parent_id": parent or bind(), "title": title,
                                                          "due_date": due, "priority": priority,
                                                          "assignee": assignee}}


def change(sid: str, tool: str, *, task: dict[str, Any] | None = None, expected_title: str | None = None,
           expected_status: str | None = None, **values: Any) -> dict[str, Any]:
    return {"id": sid, "tool": tool, "args": {"task_id": task or bind(), "expected_title": expected_title,
                                              "expected_status": expected_status, **values}}


def plan(*steps: dict[str, Any]) -> dict[str, Any]:
    return {"steps": list(steps)}


def snapshot() -> dict[int, tuple[Any, ...]]:
    """Every task's fields a plan could change."""
    return {t.pk: (t.title, t.status, t.priority, t.due_date, t.assignee_id, t.parent_id, t.updated_at)
            for t in Task.objects.all()}


def audited(run_id: str) -> None:
    report = run_audit(Run.objects.get(pk=run_id))
    assert report.passed, report.as_dict()
