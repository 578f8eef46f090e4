"""Create the demo users, projects, tasks and four weeks of history; ``--tasks N`` adds N more tasks.

Idempotent: users, projects, memberships and labels are created only when missing, and a
project's demo tasks only when the project has no tasks yet, so a second run changes nothing.
Rows are written with plain multi-row inserts in batches; the history is written directly
(not through the services) because it describes changes that happened in the past.
"""
from __future__ import annotations

import random
import time
from collections.abc import Sequence
from datetime import date, datetime
from datetime import time as dt_time
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.db.models import Field, Model
from django.utils import timezone

from projects.models import Membership, Project
from projects.services import membership_set, project_create
from tasks.demo_data import DEMO_PASSWORD, PROJECTS, USERS, PlannedTask, ProjectSpec, plan_batch, plan_project
from tasks.models import Label, Task, TaskActivity

SEED = "pm-assistant-demo"


def _rng(*parts: object) -> random.Random:
    """Return a generator seeded by name: demo data must repeat exactly, not be unpredictable."""
    return random.Random(":".join(map(str, (SEED, *parts))))  # noqa: S311 - reproducible demo data


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    if not isinstance(field, Field) or not field.column:
        raise CommandError(f"{model.__name__}.{name} is not a column.")
    return field.column


def _insert(model: type[Model], columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """Insert rows in one go, bypassing the ORM, whose per-value work would dominate at 100 000 tasks."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(_column(model, name)) for name in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # COPY is an order of magnitude faster than row-by-row inserts; triggers and constraints still run.
            with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)  # noqa: S608 - model names


def _reserve_task_ids(count: int) -> list[int]:
    """Return ids for new tasks, so parents, subtasks, labels and history can be linked before inserting."""
    table = Task._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                           [table, count])
            return [row[0] for row in cursor.fetchall()]
        # SQLite admits one writer at a time: this no-op write takes the lock for the rest of the
        # transaction, so no one else can take ids between reading the high-water mark and inserting.
        quoted = connection.ops.quote_name(table)
        cursor.execute(f"UPDATE {quoted} SET id = id WHERE 0 = 1")  # noqa: S608 - table name from the model
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {quoted}")  # noqa: S608
        highest = cursor.fetchone()[0]
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
        row = cursor.fetchone()
        first = max(highest, row[0] if row else 0) + 1
        return list(range(first, first + count))


_TASK_COLUMNS = ("id", "project", "title", "description", "status", "priority", "assignee", "start_date", "due_date",
                 "estimate_hours", "progress", "parent", "created_by", "created_at", "updated_at", "completed_at")
_ACTIVITY_COLUMNS = ("project", "task", "task_title", "actor", "kind", "field", "from_value", "to_value",
                     "created_at")


class _Writer:
    """Turn planned tasks of one project into rows with a few bulk inserts."""

    def __init__(self, *, project: Project, users: dict[str, User]) -> None:
        self.project = project
        self.user_ids = {name: user.pk for name, user in users.items()}
        self.labels = {label.name: label.pk for label in Label.objects.filter(project=project)}

    def write(self, plans: Sequence[PlannedTask]) -> tuple[int, int]:
        """Insert the tasks (parents first), their labels and history; return (tasks, activities)."""
        ordered: list[tuple[PlannedTask, PlannedTask | None]] = [(plan, None) for plan in plans]
        ordered += [(sub, plan) for plan in plans for sub in plan.subtasks]
        self._ensure_labels({name for plan, _ in ordered for name in plan.labels})
        ids = dict(zip((id(plan) for plan, _ in ordered), _reserve_task_ids(len(ordered)), strict=True))
        ops, users, project_id = connection.ops, self.user_ids, self.project.pk
        day, moment = ops.adapt_datefield_value, ops.adapt_datetimefield_value
        _insert(Task, _TASK_COLUMNS, [
            (ids[id(plan)], project_id, plan.title, plan.description, plan.status, plan.priority,
             users.get(plan.assignee or ""), day(plan.start_date), day(plan.due_date),
             ops.adapt_decimalfield_value(plan.estimate_hours, 6, 1), plan.progress,
             ids[id(parent)] if parent else None, users.get(plan.created_by), moment(plan.created_at),
             moment(plan.updated_at), moment(plan.completed_at))
            for plan, parent in ordered
        ])
        _insert(Task.labels.through, ("task", "label"),
                [(ids[id(plan)], self.labels[name]) for plan, _ in ordered for name in plan.labels])
        history = [
            (project_id, ids[id(plan)], plan.title, users.get(event.actor), event.kind, event.field,
             event.from_value, event.to_value, moment(event.at))
            for plan, _ in ordered for event in plan.events
        ]
        _insert(TaskActivity, _ACTIVITY_COLUMNS, history)
        return len(ordered), len(history)

    def _ensure_labels(self, names: set[str]) -> None:
        missing = sorted(names - set(self.labels))
        if missing:
            Label.objects.bulk_create([Label(project=self.project, name=n) for n in missing], ignore_conflicts=True)
            self.labels = {label.name: label.pk for label in Label.objects.filter(project=self.project)}


class Command(BaseCommand):
    help = "Create demo users (alice, bob, carol), three projects and ~300 tasks with history; idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tasks", type=int, default=0, help="Add this many more tasks, spread over the projects.")
        parser.add_argument("--batch-size", type=int, default=5000, help="Tasks per transaction with --tasks.")
        parser.add_argument("--reset", action="store_true", help="Delete the demo projects first and seed afresh.")

    def handle(self, *args: Any, tasks: int, batch_size: int, reset: bool, **options: Any) -> None:
        if tasks < 0:
            raise CommandError("--tasks must be zero or more.")
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        today = timezone.localdate()
        # History ends at the start of today so a rerun on the same day plans the same moments.
        anchor = timezone.make_aware(datetime.combine(today, dt_time.min))
        with transaction.atomic():
            users = self._users()
            if reset:
                Project.objects.filter(key__in=[spec.key for spec in PROJECTS]).delete()
            projects = {spec.key: self._project(spec, users) for spec in PROJECTS}
            for spec in PROJECTS:
                project = projects[spec.key]
                if Task.objects.filter(project=project).exists():
                    continue
                plans = plan_project(_rng(spec.key), spec, today=today, anchor=anchor)
                made, history = _Writer(project=project, users=users).write(plans)
                self.stdout.write(f"{spec.key}: created {made} tasks and {history} history rows.")
        if tasks:
            self._add_tasks(tasks, projects=projects, users=users, today=today, anchor=anchor, batch_size=batch_size)
        self._summary(projects, today)

    def _users(self) -> dict[str, User]:
        users = {}
        for name in USERS:
            user, created = User.objects.get_or_create(
                username=name, defaults={"email": f"{name}@example.com", "first_name": name.title()}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[name] = user
        return users

    def _project(self, spec: ProjectSpec, users: dict[str, User]) -> Project:
        owner = users[spec.owner]
        project = Project.objects.filter(key=spec.key).first() or project_create(
            owner=owner, name=spec.name, key=spec.key, description=spec.description)
        for name in spec.members:
            if not project.memberships.filter(user=users[name]).exists():
                membership_set(actor=owner, project=project, user=users[name], role=Membership.Role.MEMBER)
        existing = set(project.labels.values_list("name", flat=True))
        Label.objects.bulk_create([Label(project=project, name=n) for n in spec.labels if n not in existing])
        return project

    def _add_tasks(self, total: int, *, projects: dict[str, Project], users: dict[str, User],
                   today: date, anchor: datetime, batch_size: int) -> None:
        """Add ``total`` tasks round the projects, one transaction per batch."""
        started = time.monotonic()
        shares = [total // len(PROJECTS) + (1 if i < total % len(PROJECTS) else 0) for i in range(len(PROJECTS))]
        made = history = 0
        for spec, share in zip(PROJECTS, shares, strict=True):
            writer = _Writer(project=projects[spec.key], users=users)
            for offset in range(0, share, batch_size):
                count = min(batch_size, share - offset)
                existing = Task.objects.filter(project=projects[spec.key]).count()
                rng = _rng(spec.key, "extra", existing)
                with transaction.atomic():
                    tasks_made, rows = writer.write(plan_batch(rng, spec, count=count, today=today, anchor=anchor))
                made, history = made + tasks_made, history + rows
        elapsed = time.monotonic() - started
        self.stdout.write(f"Added {made} tasks and {history} history rows in {elapsed:.1f}s.")

    def _summary(self, projects: dict[str, Project], today: date) -> None:
        demo_tasks = Task.objects.filter(project__in=projects.values())
        overdue = demo_tasks.filter(due_date__lt=today).exclude(status=Task.Status.DONE).count()
        history = TaskActivity.objects.filter(project__in=projects.values()).count()
        self.stdout.write(
            f"Demo data: {len(USERS)} users, {len(projects)} projects, {demo_tasks.count()} tasks "
            f"({overdue} overdue), {history} history rows."
        )
        self.stdout.write(self.style.SUCCESS(f"Log in as alice / {DEMO_PASSWORD}"))
