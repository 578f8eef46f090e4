"""Tasks, their labels and the activity history the services write on every change."""
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from pm_assistant.vocabulary import PRIORITY_LABELS, STATUS_LABELS, task_key
from projects.models import Project

from .ordering import DueKey


class Label(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="labels")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="label_unique_per_project")]

    def __str__(self) -> str:
        return self.name


class Task(models.Model):
    # Built from pm_assistant.vocabulary, where the words are declared once.
    Status: Any = models.TextChoices(  # type: ignore[call-overload]
        "Status", [(v.upper(), (v, label)) for v, label in STATUS_LABELS.items()])
    Priority: Any = models.TextChoices(  # type: ignore[call-overload]
        "Priority", [(v, (v, label)) for v, label in PRIORITY_LABELS.items()])

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="tasks")
    title = models.CharField(max_length=300)
    description = models.TextField(blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.TODO)
    priority = models.CharField(max_length=2, choices=Priority.choices, default=Priority.P2)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="assigned_tasks"
    )
    labels = models.ManyToManyField(Label, blank=True, related_name="tasks")
    start_date = models.DateField(null=True, blank=True)
    due_date = models.DateField(null=True, blank=True)
    estimate_hours = models.DecimalField(max_digits=6, decimal_places=1, null=True, blank=True)
    progress = models.PositiveSmallIntegerField(default=0)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="subtasks")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="created_tasks"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    # Not a column: the fields tasks.services.task_update changed on this instance (none: nothing changed).
    changed_fields: tuple[str, ...] = ()

    class Meta:
        ordering = ["due_date", "id"]
        indexes = [
            models.Index(fields=["project", "status"], name="task_project_status"),
            # Project progress counts top-level, done and blocked tasks from this index alone.
            models.Index(fields=["project", "status", "parent"], name="task_project_status_parent"),
            models.Index(fields=["assignee", "status"], name="task_assignee_status"),
            # "My overdue": the assignee's open tasks by due date, answered from the index alone.
            models.Index(fields=["assignee", "status", "due_date"], name="task_assignee_status_due"),
            models.Index(fields=["project", "due_date"], name="task_project_due"),
            # The home workbench's lists: my tasks by due date, and my open tasks by priority.
            models.Index(fields=["assignee", "due_date", "id"], name="task_assignee_due_id"),
            models.Index(fields=["assignee", "priority", "due_date", "id"], name="task_assignee_priority_due"),
            models.Index(fields=["due_date", "id"], name="task_due_id"),
            # The lists' order (tasks.ordering): a page after or before a position is one range of it.
            models.Index(DueKey(), F("id"), name="task_due_key_id"),
            models.Index(fields=["priority"], name="task_priority"),
            models.Index(fields=["updated_at"], name="task_updated"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(progress__gte=0, progress__lte=100), name="task_progress_0_100"),
            models.CheckConstraint(condition=~Q(parent=F("id")), name="task_not_own_parent"),
            models.CheckConstraint(
                condition=Q(start_date__isnull=True) | Q(due_date__isnull=True) | Q(due_date__gte=F("start_date")),
                name="task_due_after_start",
            ),
            models.CheckConstraint(
                condition=Q(status__in=list(STATUS_LABELS)), name="task_status_valid"
            ),
            models.CheckConstraint(condition=Q(priority__in=list(PRIORITY_LABELS)), name="task_priority_valid"),
            # Target of the composite "parent in the same project" rule (see migration 0002).
            models.UniqueConstraint(fields=["id", "project"], name="task_id_project_unique"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def key(self) -> str:
        """The task's key as users see it, e.g. WEB-25 (reads the project: select_related it)."""
        return task_key(self.project.key, self.pk)

    @property
    def is_open(self) -> bool:
        return self.status != self.Status.DONE


class TaskActivity(models.Model):
    class Kind(models.TextChoices):
        CREATED = "created", "Created"
        UPDATED = "updated", "Updated"
        STATUS = "status", "Status changed"
        ASSIGNED = "assigned", "Assignee changed"
        PROGRESS = "progress", "Progress changed"
        DELETED = "deleted", "Deleted"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="activities")
    # Kept after the task is deleted so history (and weekly reports) still count it.
    task = models.ForeignKey(Task, null=True, on_delete=models.SET_NULL, related_name="activities")
    task_title = models.CharField(max_length=300)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    field = models.CharField(max_length=40, blank=True)
    from_value = models.TextField(blank=True)
    to_value = models.TextField(blank=True)
    created_at = models.DateTimeField(db_index=True)
    # The assistant run that made the change (agent.Run's id), so the run can be undone from this log.
    # An id, not a foreign key: tasks know nothing of the assistant.
    run_id = models.UUIDField(null=True, blank=True)
    # On a DELETED entry, the id the task had (its link above is cleared with the task): a page that
    # still lists it can be told the task is gone, and only by someone who could see it.
    deleted_task_id = models.BigIntegerField(null=True, blank=True)
    # On a DELETED entry, when the task had been created: a past week's report tells a deletion that
    # changed its figures (a task that existed then) from one of a task created after the week.
    deleted_task_created_at = models.DateTimeField(null=True, blank=True)

    # Not a column: usernames in from_value/to_value and the names to show for them, when the
    # reader looked them up (tasks.selectors.task_activity_for_task).
    people: dict[str, str] = {}

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "task activities"
        indexes = [
            models.Index(fields=["project", "created_at"], name="activity_project_time"),
            models.Index(fields=["task", "created_at"], name="activity_task_time"),
            models.Index(fields=["run_id"], name="activity_run"),
            models.Index(fields=["deleted_task_id"], name="activity_deleted_task",
                         condition=models.Q(deleted_task_id__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.task_title}"


class TaskCount(models.Model):
    """How many tasks a project holds per status, assignee and level, kept by the database itself.

    Triggers on tasks_task (migration 0007) move these rows in the statement that writes the tasks,
    whoever writes them: the services, the admin, a bulk seed, a cascade. A list's "of N" and home's
    progress add up a few of these rows instead of counting the tasks, so they cost the same at a
    thousand tasks or a hundred thousand. ``manage.py recount_tasks`` rebuilds them from the tasks.
    """

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=12)
    # The assignee's id, 0 for nobody: a key column, so never null (a null would never match on conflict).
    assignee_key = models.BigIntegerField()
    top_level = models.BooleanField()  # no parent: what a project's progress counts
    tasks = models.IntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["project", "status", "assignee_key", "top_level"],
                                               name="taskcount_key")]

    def __str__(self) -> str:
        return f"{self.project_id}/{self.status}/{self.assignee_key}/{self.top_level}: {self.tasks}"
