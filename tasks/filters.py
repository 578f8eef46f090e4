"""The task filter: one typed value shared by pages, the API and the assistant's tools."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from pm_assistant.vocabulary import ID_MAX

from .models import Task


@dataclass(frozen=True)
class TaskFilters:
    project_id: int | None = None
    status: tuple[str, ...] = ()
    assignee: int | str | None = None  # a user id, "me", or "none" (nobody's)
    priority: tuple[str, ...] = ()
    due_before: date | None = None
    due_after: date | None = None
    labels: tuple[str, ...] = ()
    search: str = ""
    ids: tuple[int, ...] = field(default=())


def scope_q(f: TaskFilters, user: Any, *, assignee: str = "assignee_id") -> Q:
    """The filters' project, status and assignee, as a condition on columns of those names.

    Shared by the task lists (tasks.selectors) and the counters that give their length
    (tasks.counts, whose assignee column is ``assignee_key``), so both read a filter alike.
    """
    condition = Q()
    if f.project_id is not None:
        condition &= Q(project_id=f.project_id)
    if f.status:
        condition &= Q(status__in=f.status)
    if f.assignee == "me":
        # Nobody's own tasks for an anonymous caller: a condition no row meets.
        condition &= Q(**{assignee: user.pk}) if user.is_authenticated else Q(pk__in=[])
    elif f.assignee == "none":
        # The counters keep nobody's tasks under the key 0 (tasks.count_triggers), the tasks under NULL.
        condition &= Q(**{assignee: 0}) if assignee == "assignee_key" else Q(**{f"{assignee}__isnull": True})
    elif f.assignee is not None:
        condition &= Q(**{assignee: int(f.assignee)})
    return condition


class _CSVList(serializers.ListField):
    """Accept ``?status=a,b`` as well as ``?status=a&status=b``."""

    def to_internal_value(self, data: Any) -> list[Any]:
        items: list[Any] = []
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, str):
                items.extend(part for part in item.split(",") if part)
            else:
                items.append(item)
        return super().to_internal_value(items)


@extend_schema_field(OpenApiTypes.STR)
class AssigneeField(serializers.Field):
    """A user id, the word ``me``, or ``none`` (tasks nobody is assigned)."""

    default_error_messages = {"invalid": 'Must be a user id, "me" or "none".'}

    def to_internal_value(self, data: Any) -> int | str:
        if data in ("me", "none"):
            return str(data)
        try:
            value = int(data)
        except (TypeError, ValueError):
            self.fail("invalid")
        if not 1 <= value <= ID_MAX:
            self.fail("invalid")
        return value

    def to_representation(self, value: Any) -> Any:
        return value


class TaskFilterSerializer(serializers.Serializer):
    """Parse query parameters into TaskFilters, naming the field on every error."""

    project = serializers.IntegerField(required=False, min_value=1, max_value=ID_MAX)
    status = _CSVList(child=serializers.ChoiceField(choices=Task.Status.choices), required=False, max_length=4)
    assignee = AssigneeField(required=False)
    priority = _CSVList(child=serializers.ChoiceField(choices=Task.Priority.choices), required=False, max_length=4)
    # An empty value (`?due_before=`, what an HTML form sends for an empty date input) means no filter.
    due_before = serializers.DateField(required=False, help_text="YYYY-MM-DD; empty means no filter.")
    due_after = serializers.DateField(required=False, help_text="YYYY-MM-DD; empty means no filter.")
    labels = _CSVList(child=serializers.CharField(max_length=40), required=False, max_length=20)
    search = serializers.CharField(required=False, allow_blank=True, max_length=200, trim_whitespace=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        before, after = attrs.get("due_before"), attrs.get("due_after")
        if before and after and after > before:
            raise serializers.ValidationError({"due_after": "Must not be later than due_before."})
        return attrs

    def to_filters(self) -> TaskFilters:
        data = self.validated_data
        return TaskFilters(
            project_id=data.get("project"),
            status=tuple(data.get("status", ())),
            assignee=data.get("assignee"),
            priority=tuple(data.get("priority", ())),
            due_before=data.get("due_before"),
            due_after=data.get("due_after"),
            labels=tuple(data.get("labels", ())),
            search=data.get("search", ""),
        )
