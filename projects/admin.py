"""Admin for projects and memberships."""
from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Membership, Project


def _lock_for_delete(project_ids: list[int]) -> None:
    """Lock the projects about to be deleted, in id order, before their tasks go.

    Deleting a project deletes its tasks first (the database's triggers move the project's counters)
    and the project row last. Every task write takes its project's lock first (tasks.services.lock_projects),
    so taking it here too, FOR UPDATE as the DELETE will, makes a writer of the same project wait for
    the deletion instead of deadlocking with it.
    """
    list(Project.objects.select_for_update().filter(pk__in=project_ids).order_by("pk").values_list("pk"))


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)
    fields = ("user", "role", "created_at")
    readonly_fields = ("created_at",)


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "owner", "archived", "created_at")
    list_filter = ("archived",)
    search_fields = ("key", "name", "description")
    raw_id_fields = ("owner",)
    readonly_fields = ("created_at", "updated_at")
    inlines = (MembershipInline,)

    def delete_model(self, request: HttpRequest, obj: Project) -> None:
        with transaction.atomic():
            _lock_for_delete([obj.pk])
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Project]) -> None:
        with transaction.atomic():
            _lock_for_delete(list(queryset.values_list("pk", flat=True)))
            super().delete_queryset(request, queryset)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "project", "role", "created_at")
    list_filter = ("role", "project")
    search_fields = ("user__username", "project__key", "project__name")
    raw_id_fields = ("user",)
    list_select_related = ("user", "project")
