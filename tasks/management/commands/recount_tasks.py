"""Rebuild the task counters (tasks.models.TaskCount) from the tasks.

The database keeps them by itself; this is for a database restored without its triggers or written
to with them disabled, and for checking: ``--check`` reports any counter that differs and changes nothing.
"""
from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import BooleanField, Count, ExpressionWrapper, F, Q

from tasks.counts import task_counts_rebuild
from tasks.models import Task, TaskCount


def _counted() -> dict[tuple[int, str, int, bool], int]:
    rows = Task.objects.order_by().annotate(
        top_level=ExpressionWrapper(Q(parent__isnull=True), output_field=BooleanField()),
    ).values("project_id", "status", "assignee_id", "top_level").annotate(n=Count("id")).values_list(
        "project_id", "status", "assignee_id", "top_level", "n")
    found: dict[tuple[int, str, int, bool], int] = {}
    for project_id, status, assignee_id, top_level, n in rows:
        key = (project_id, status, assignee_id or 0, bool(top_level))
        found[key] = found.get(key, 0) + n
    return found


def _kept() -> dict[tuple[int, str, int, bool], int]:
    rows = TaskCount.objects.exclude(tasks=0).values_list("project_id", "status", "assignee_key", "top_level",
                                                          F("tasks"))
    return {(p, s, a, bool(t)): n for p, s, a, t, n in rows}


class Command(BaseCommand):
    help = "Rebuild the task counters from the tasks (--check: only compare)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="compare the counters with the tasks; change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            counted, kept = _counted(), _kept()
            wrong = sorted(key for key in counted.keys() | kept.keys() if counted.get(key, 0) != kept.get(key, 0))
            for key in wrong:
                self.stdout.write(f"project {key[0]}, {key[1]}, assignee {key[2] or 'nobody'}, "
                                  f"{'top level' if key[3] else 'subtasks'}: "
                                  f"{kept.get(key, 0)} counted, {counted.get(key, 0)} tasks")
            if wrong:
                raise CommandError(f"{len(wrong)} task counters differ from the tasks; run recount_tasks to rebuild.")
            self.stdout.write("The task counters match the tasks.")
            return
        rows = task_counts_rebuild()
        self.stdout.write(f"Rebuilt {rows} task counters.")
