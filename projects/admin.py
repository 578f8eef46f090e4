"""Admin for projects and memberships."""
from django.contrib import admin

from pm_assistant.admin_locks import LocksBeforeDeleting

from .models import Membership, Project


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)
    fields = ("user", "role", "created_at")
    readonly_fields = ("created_at",)


@admin.register(Project)
class ProjectAdmin(LocksBeforeDeleting):
    list_display = ("key", "name", "owner", "archived", "created_at")
    list_filter = ("archived",)
    search_fields = ("key", "name", "description")
    raw_id_fields = ("owner",)
    readonly_fields = ("created_at", "updated_at")
    inlines = (MembershipInline,)

    def lock_before_deleting(self, ids: list[int]) -> None:
        """The projects themselves, FOR UPDATE as their DELETE will (it comes last, after their tasks)."""
        list(Project.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk"))


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "project", "role", "created_at")
    list_filter = ("role", "project")
    search_fields = ("user__username", "project__key", "project__name")
    raw_id_fields = ("user",)
    list_select_related = ("user", "project")
