"""Admin deletions that lock projects before they reach tasks.

Every task write takes its projects' locks first, in id order (tasks.services.lock_projects), so
writers reach a project's counters (moved by the database's triggers) one after another and never
deadlock. A deletion in the admin cascades to tasks (a project's are deleted, a person's assignments
cleared): an admin for such a model says which projects to lock, and its deletions take those locks
in the same transaction, before the cascade starts.
"""
from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest


class LocksBeforeDeleting(admin.ModelAdmin):
    """A ModelAdmin whose single and bulk deletions call `lock_before_deleting` with the ids first."""

    def lock_before_deleting(self, ids: list[int]) -> None:
        raise NotImplementedError

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            self.lock_before_deleting([obj.pk])
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        with transaction.atomic():
            self.lock_before_deleting(list(queryset.values_list("pk", flat=True)))
            super().delete_queryset(request, queryset)
