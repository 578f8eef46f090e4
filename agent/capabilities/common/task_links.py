"""Where an answer's next moves go: the task list filtered by assignee, and the report of the same scope."""
from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse

from pm_assistant.vocabulary import OPEN_STATUSES


def open_tasks_url(*, assignee: int | str, project_id: int | None) -> str:
    """The task list showing one assignee's open tasks (a user id or "me"), in one project or in all the user's."""
    params = {"assignee": assignee, "status": ",".join(OPEN_STATUSES)}
    return f"{reverse('task-list')}?{urlencode({'project': project_id, **params} if project_id else params)}"


def reassign_url(task_id: int) -> str:
    """The task's page with its assignee's editor open."""
    return f"{reverse('task-detail', args=[task_id])}?edit=assignee"


def report_url(*, project_id: int | None, week: str = "this") -> str:
    """The weekly report page of the same scope, for this week unless another is named."""
    page = reverse("weekly-report", args=[project_id]) if project_id is not None else reverse("weekly-report-all")
    return f"{page}?{urlencode({'week': week})}"
