"""query's tools: the filters of its presets; the query itself is agent/tools/task_tools.py's (shared)."""
from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from pm_assistant.vocabulary import OPEN_STATUSES
from tasks.filters import TaskFilters


def my_overdue_filters(*, today: date | None = None) -> TaskFilters:
    """Filters for the user's open tasks whose due date has passed, by the server's clock."""
    today = today or timezone.localdate()
    return TaskFilters(assignee="me", status=OPEN_STATUSES,
                       due_before=today - timedelta(days=1))
