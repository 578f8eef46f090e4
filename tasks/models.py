"""Tasks, their labels and the activity history the services write on every change."""
from django.conf import settings
from django.db import models
from django.db.models import F, Q

from projects.models import Project


class Label(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="labels")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="label_unique_per_project")]

    def __str__(self) -> str:
        return self.name


class Task(models.Model):
    class Status(models.TextChoices):
        TODO = "todo", "To do"
        IN_PROGRESS = "in_progress", "In progress"
        BLOCKED = "blocked", "Blocked"
        DONE = "done", "Done"

    class Priority(models.TextChoices):
        P0 = "P0", "P0 · Critical"
        P1 = "P1", "P1 · High"
        P2 = "P2", "P2 · Normal"
        P3 = "P3", "P3 · Low"

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

    class Meta:
        ordering = ["due_date", "id"]
        indexes = [
            models.Index(fields=["project", "status"], name="task_project_status"),
            models.Index(fields=["assignee", "status"], name="task_assignee_status"),
            models.Index(fields=["project", "due_date"], name="task_project_due"),
            models.Index(fields=["due_date", "id"], name="task_due_id"),
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
                condition=Q(status__in=["todo", "in_progress", "blocked", "done"]), name="task_status_valid"
            ),
            models.CheckConstraint(condition=Q(priority__in=["P0", "P1", "P2", "P3"]), name="task_priority_valid"),
            # Target of the composite "parent in the same project" rule (see migration 0002).
            models.UniqueConstraint(fields=["id", "project"], name="task_id_project_unique"),
        ]

    def __str__(self) -> str:
        return self.title

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

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "task activities"
        indexes = [
            models.Index(fields=["project", "created_at"], name="activity_project_time"),
            models.Index(fields=["task", "created_at"], name="activity_task_time"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.task_title}"
