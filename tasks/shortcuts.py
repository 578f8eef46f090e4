"""Task reads for pages: 404 outside the user's projects."""
from __future__ import annotations

from django.http import Http404

from pm_assistant.errors import NotFound
from projects.selectors import AnyUser

from .models import Task
from .selectors import task_get_for_user


def task_or_404(*, user: AnyUser, task_id: int) -> Task:
    """Return the task, or raise Http404 when the user cannot see it."""
    try:
        return task_get_for_user(user=user, task_id=task_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc
