"""Admin for tasks, labels and the (read-only) activity history."""
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from .models import Label, Task, TaskActivity
from .services import lock_projects, lock_projects_of


@admin.register(Label)
class LabelAdmin(admin.ModelAdmin):
    list_display = ("name", "project")
    list_filter = ("project",)
    search_fields = ("name",)
    list_select_related = ("project",)


@admin.register(Task)
class TaskAdmin(admin.ModelAdmin):
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

    def delete_model(self, request: HttpRequest, obj: Task) -> None:
        with transaction.atomic():
            lock_projects_of([obj.pk])
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Task]) -> None:
        with transaction.atomic():
            lock_projects_of(list(queryset.values_list("pk", flat=True)))
            super().delete_queryset(request, queryset)


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


def _lock_projects_of_people(user_ids: list[int]) -> None:
    """Lock the projects of every task these people are assigned to or created, before they are deleted:
    deleting a person clears those fields of the tasks (SET_NULL), a task write like any other."""
    touched = Task.objects.filter(Q(assignee__in=user_ids) | Q(created_by__in=user_ids))
    lock_projects(set(touched.values_list("project_id", flat=True)))


class LockingUserAdmin(UserAdmin):
    """Django's user admin, taking the projects' locks before a deletion reaches the tasks."""

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            _lock_projects_of_people([obj.pk])
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        with transaction.atomic():
            _lock_projects_of_people(list(queryset.values_list("pk", flat=True)))
            super().delete_queryset(request, queryset)


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, LockingUserAdmin)
