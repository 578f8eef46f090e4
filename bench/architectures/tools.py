"""The tool set a ReAct or Plan-Execute agent binds: the project's own tools, as OpenAI functions.

Each function calls the same task tools, subtask tools and report pipelines the app uses, as the
acting user. Arguments are what the model typed (ids included): that is the point of comparison.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any
from uuid import uuid4

from django.contrib.auth.models import User
from django.utils import timezone

from agent.capabilities.crud import tools as crud_tools
from agent.capabilities.decompose import tools as subtask_tools
from agent.capabilities.query import tools as query_tools
from agent.tools import task_tools
from pm_assistant.errors import ApplicationError
from pm_assistant.vocabulary import PRIORITIES, STATUSES
from reports.pipeline import weekly_report_build, windows_now
from reports.risk.assess import risk_assess
from reports.scope import scope_for_user
from tasks.filters import TaskFilters
from tasks.selectors import task_get_for_user

# Tools that destroy or change data beyond one field: what the app gates behind a confirmation.
DESTRUCTIVE = frozenset({"delete_task", "bulk_set_status"})


def _query(user: User, *, status: list[str] | None = None, priority: list[str] | None = None,
           assignee_me: bool = False, overdue: bool = False, project_id: int | None = None) -> dict[str, Any]:
    if overdue:
        filters = replace(query_tools.my_overdue_filters(), project_id=project_id)
    else:
        filters = TaskFilters(project_id=project_id, status=tuple(status or ()), priority=tuple(priority or ()),
                              assignee="me" if assignee_me else None)
    return task_tools.query_tasks(user=user, filters=filters, limit=50)


def _get_task(user: User, *, task_id: int) -> dict[str, Any]:
    facts = task_tools.task_facts(user=user, task_id=task_id)
    task = task_get_for_user(user=user, task_id=task_id)
    return {k: facts[k] for k in ("task_id", "key", "title", "status", "project", "project_id", "assignee",
                                  "due_date", "subtask_count")} | {"description": task.description}


def _update(user: User, *, task_id: int, status: str | None = None, priority: str | None = None,
            due_date: str | None = None) -> dict[str, Any]:
    return crud_tools.update_task(user=user, task_id=task_id, status=status, priority=priority,
                                  due_date=date.fromisoformat(due_date) if due_date else None, run_id=uuid4())


def _create(user: User, *, project_id: int, title: str, priority: str | None = None,
            due_date: str | None = None) -> dict[str, Any]:
    return crud_tools.create_task(user=user, project_id=project_id, title=title, priority=priority,
                                  due_date=date.fromisoformat(due_date) if due_date else None)


def _subtask(user: User, *, parent_id: int, title: str) -> dict[str, Any]:
    return subtask_tools.create_subtask(user=user, parent_id=parent_id, title=title)


def _weekly_report(user: User, *, project_id: int | None = None, week: str = "last") -> dict[str, Any]:
    report = weekly_report_build(scope=scope_for_user(user=user, project_id=project_id),
                                 windows=windows_now(week, now=timezone.now()))
    f = report.current
    return {"scope": report.scope_label, "week": f.week, "from": f.monday, "to": f.sunday, **f.counts(),
            "completed_tasks": [report.tasks[i].title for i in f.completed]}


def _risk_report(user: User, *, project_id: int | None = None) -> dict[str, Any]:
    scope = scope_for_user(user=user, project_id=project_id)
    report = risk_assess(scope=scope, today=timezone.localdate())
    return {"scope": report.scope_label, "open_tasks": report.open_tasks, **report.levels(),
            "top": [{"key": t.key, "title": t.title, "score": t.score, "level": t.level} for t in report.top()]}


def _fn(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required, "additionalProperties": False}}}


_ID = {"type": "integer"}
_LIST = {"status": {"type": "array", "items": {"type": "string", "enum": list(STATUSES)}},
         "priority": {"type": "array", "items": {"type": "string", "enum": list(PRIORITIES)}}}
TOOL_SCHEMAS: list[dict[str, Any]] = [
    _fn("query_tasks", "Find tasks the user can see.", {**_LIST, "assignee_me": {"type": "boolean"},
        "overdue": {"type": "boolean", "description": "Only the user's open tasks past their due date."},
        "project_id": _ID}, []),
    _fn("get_task", "Read one task: title, status, project, description, subtasks.", {"task_id": _ID}, ["task_id"]),
    _fn("create_task", "Create a task in a project.", {"project_id": _ID, "title": {"type": "string"},
        "priority": {"type": "string", "enum": list(PRIORITIES)}, "due_date": {"type": "string"}},
        ["project_id", "title"]),
    _fn("update_task", "Change the status, priority or due date of a task.", {
        "task_id": _ID, "status": {"type": "string", "enum": list(STATUSES)},
        "priority": {"type": "string", "enum": list(PRIORITIES)}, "due_date": {"type": "string"}}, ["task_id"]),
    _fn("bulk_set_status", "Set the status of several tasks.", {"task_ids": {"type": "array", "items": _ID},
        "status": {"type": "string", "enum": list(STATUSES)}}, ["task_ids", "status"]),
    _fn("delete_task", "Delete a task and its subtasks.", {"task_id": _ID}, ["task_id"]),
    _fn("create_subtask", "Create a subtask under a task.", {"parent_id": _ID, "title": {"type": "string"}},
        ["parent_id", "title"]),
    _fn("weekly_report", "Figures of a week's progress.", {"project_id": _ID, "week": {"type": "string"}}, []),
    _fn("risk_report", "Open tasks scored by delay risk.", {"project_id": _ID}, []),
]
TOOLS: dict[str, Callable[..., dict[str, Any]]] = {
    "query_tasks": _query, "get_task": _get_task, "create_task": _create, "update_task": _update,
    "bulk_set_status": lambda user, *, task_ids, status: crud_tools.bulk_set_status(
        user=user, task_ids=task_ids, status=status, run_id=uuid4()),
    "delete_task": lambda user, *, task_id: crud_tools.delete_task(user=user, task_id=task_id),
    "create_subtask": _subtask, "weekly_report": _weekly_report, "risk_report": _risk_report,
}
assert set(TOOLS) == {t["function"]["name"] for t in TOOL_SCHEMAS}


def tool_call(user: User, name: str, arguments: str) -> str:
    """Run one tool the model asked for and return its result as the JSON the model reads next."""
    try:
        args = json.loads(arguments or "{}")
        result = TOOLS[name](user, **{k: v for k, v in args.items() if v is not None})
    except ApplicationError as exc:
        result = {"error": exc.message}
    except (KeyError, TypeError, ValueError) as exc:
        result = {"error": f"bad call: {exc}"}
    return json.dumps(result, ensure_ascii=False, default=str)
