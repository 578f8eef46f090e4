"""Admin for tasks, labels, the (read-only) activity history, and people (whose deletion changes tasks)."""
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest

from pm_assistant.admin_locks import LocksBeforeDeleting

from .models import Label, Task, TaskActivity
from .services import lock_projects, lock_projects_of


@admin.register(Label)
class LabelAdmin(admin.ModelAdmin):
    list_display = ("name", "project")
    list_filter = ("project",)
    search_fields = ("name",)
    list_select_related = ("project",)


@admin.register(Task)
class TaskAdmin(LocksBeforeDeleting):
    list_display = ("id", "title", "project", "status", "priority", "assignee", "due_date", "progress")
    list_filter = ("status", "priority", "project", ("assignee", admin.RelatedOnlyFieldListFilter), "due_date")
    search_fields = ("title", "description")
    raw_id_fields = ("parent", "assignee", "created_by")
    filter_horizontal = ("labels",)
    date_hierarchy = "due_date"
    readonly_fields = ("created_at", "updated_at", "completed_at")
    list_select_related = ("project", "assignee")
    list_per_page = 50

    # The admin writes tasks without the services, but like them it takes the projects' locks first
    # (tasks.services.lock_projects_of): the database's triggers move the project's counters, and a
    # write reaching them without the lock could deadlock with a service write to the same project.
    def save_model(self, request: HttpRequest, obj: Task, form: Any, change: bool) -> None:
        with transaction.atomic():
            before = Task.objects.filter(pk=obj.pk).values_list("project_id", flat=True) if change else []
            lock_projects({obj.project_id, *before})
            super().save_model(request, obj, form, change)

    def lock_before_deleting(self, ids: list[int]) -> None:
        lock_projects_of(ids)


@admin.register(TaskActivity)
class TaskActivityAdmin(admin.ModelAdmin):
    """History is written by the services; the admin only reads it."""

    list_display = ("created_at", "project", "task_title", "kind", "field", "from_value", "to_value", "actor")
    list_filter = ("kind", "project")
    search_fields = ("task_title", "from_value", "to_value")
    date_hierarchy = "created_at"
    list_select_related = ("project", "actor")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: TaskActivity | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: TaskActivity | None = None) -> bool:
        return False


User = get_user_model()


class LockingUserAdmin(LocksBeforeDeleting, UserAdmin):
    """Django's user admin; deleting a person clears their tasks' assignee and creator (SET_NULL), a task
    write like any other: the projects of those tasks are locked first."""

    def lock_before_deleting(self, ids: list[int]) -> None:
        touched = Task.objects.filter(Q(assignee__in=ids) | Q(created_by__in=ids))
        lock_projects(sorted(set(touched.values_list("project_id", flat=True))))


admin.site.unregister(User)  # django.contrib.auth's registration, which comes first in INSTALLED_APPS
admin.site.register(User, LockingUserAdmin)
