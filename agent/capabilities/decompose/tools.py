"""Tools a task breakdown runs: read the parent's brief, description and subtasks; create subtasks; set a due
date, assignee or priority.

Ids arrive already resolved from bindings; names of people are usernames, resolved here among
the members of the task's project. Every write goes through the tasks services, which check
that the acting user may write to the project.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from agent.tools.task_tools import task_facts, task_row
from pm_assistant.errors import InvalidInput
from projects.models import Project
from projects.selectors import project_members
from tasks.models import Task
from tasks.selectors import task_get_for_user
from tasks.services import task_create, task_update


def _display(user: User) -> str:
    return user.get_full_name() or user.get_username()


def _member(project: Project, username: str) -> User:
    """Return the project member with this username; anyone else is refused by name."""
    for membership in project_members(project=project):
        if membership.user.get_username() == username:
            return membership.user
    raise InvalidInput(f"assignee: {username!r} is not a member of {project.name}.", field="assignee")


def _not_past(due_date: date) -> date:
    if due_date < timezone.localdate():
        raise InvalidInput(f"due_date: {due_date.isoformat()} is in the past.", field="due_date")
    return due_date


# The subtasks a breakdown reads to propose none of them again; more than the inline limit are stored
# apart (indexed by key and title) and the planner searches them on demand.
SUBTASKS_READ_MAX = 500


def parent_brief(*, user: User, task_id: int) -> dict[str, Any]:
    """Read what a planner and the plan card need about a task: its facts, priority and people (bounded).

    The description and the subtasks, which can be long, are read apart (parent_description,
    parent_subtasks) so each is stored apart on its own when large and looked into on demand.
    """
    task = task_get_for_user(user=user, task_id=task_id)
    members = [{"username": m.user.get_username(), "name": _display(m.user), "role": m.role}
               for m in project_members(project=task.project)]
    return {**task_facts(user=user, task_id=task_id), "priority": task.priority,
            "assignee_name": _display(task.assignee) if task.assignee else None, "members": members}


def parent_description(*, user: User, task_id: int) -> str:
    """Read a task's description as its author wrote it (stored apart as text when long)."""
    return task_get_for_user(user=user, task_id=task_id).description


def parent_subtasks(*, user: User, task_id: int) -> dict[str, Any]:
    """Read a task's subtasks (the first SUBTASKS_READ_MAX): key, title, status, assignee and due date of each."""
    task = task_get_for_user(user=user, task_id=task_id)
    below = task.subtasks.select_related("assignee", "project").order_by("pk")
    rows = [{"key": t.key, "title": t.title, "status": t.status,
             "assignee": t.assignee.get_username() if t.assignee else None,
             "due_date": t.due_date.isoformat() if t.due_date else None} for t in below[:SUBTASKS_READ_MAX]]
    return {"count": below.count() if len(rows) == SUBTASKS_READ_MAX else len(rows), "items": rows}


def subtask_row(task: Task) -> dict[str, Any]:
    """A task row plus its parent, so a step's result says where it was created."""
    return {**task_row(task), "parent_id": task.parent_id,
            "assignee_name": _display(task.assignee) if task.assignee else None}


def create_subtask(*, user: User, parent_id: int, title: str, due_date: date | None = None,
                   priority: str | None = None, assignee: str | None = None) -> dict[str, Any]:
    """Create a subtask under a task the user can write to, in the parent's project."""
    parent = task_get_for_user(user=user, task_id=parent_id)
    task = task_create(actor=user, project=parent.project, title=title, parent=parent,
                       priority=priority or Task.Priority.P2,
                       due_date=_not_past(due_date) if due_date else None,
                       assignee=_member(parent.project, assignee) if assignee else None)
    return subtask_row(task)


def set_due_date(*, user: User, task_id: int, due_date: date) -> dict[str, Any]:
    """Set a task's due date (never in the past)."""
    task = task_get_for_user(user=user, task_id=task_id)
    return subtask_row(task_update(actor=user, task=task, due_date=_not_past(due_date)))


def assign(*, user: User, task_id: int, assignee: str) -> dict[str, Any]:
    """Assign a task to a member of its project, named by username."""
    task = task_get_for_user(user=user, task_id=task_id)
    return subtask_row(task_update(actor=user, task=task, assignee=_member(task.project, assignee)))


def set_priority(*, user: User, task_id: int, priority: str) -> dict[str, Any]:
    """Set a task's priority."""
    task = task_get_for_user(user=user, task_id=task_id)
    return subtask_row(task_update(actor=user, task=task, priority=priority))
