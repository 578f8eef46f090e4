"""Serializer building blocks of the task API; each API class nests its own input/output."""
from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from pm_assistant.errors import InvalidInput
from pm_assistant.vocabulary import ID_MAX, PAGE_NUMBER_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX
from projects.serializers import ProjectRefSerializer, StrictInputSerializer, UserRefSerializer

from .models import Task
from .paging import Cursor, cursor_decode


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class LabelNamesField(serializers.Field):
    """A task's labels as a list of names (prefetch ``labels`` for lists)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: Any) -> list[str]:
        return [label.name for label in value.all()]


class TaskOutputFields(serializers.Serializer):
    """How a task reads in every API answer."""

    id = serializers.IntegerField()
    project = ProjectRefSerializer()
    title = serializers.CharField()
    description = serializers.CharField()
    status = serializers.ChoiceField(choices=Task.Status.choices)
    priority = serializers.ChoiceField(choices=Task.Priority.choices)
    assignee = UserRefSerializer(allow_null=True)
    labels = LabelNamesField()
    start_date = serializers.DateField(allow_null=True)
    due_date = serializers.DateField(allow_null=True)
    estimate_hours = serializers.DecimalField(max_digits=6, decimal_places=1, coerce_to_string=False, allow_null=True)
    progress = serializers.IntegerField(min_value=0, max_value=100)
    # DRF's metaclass moves declared fields aside, so this does not hide Field.parent at runtime.
    parent = serializers.IntegerField(  # type: ignore[assignment]
        source="parent_id", allow_null=True, help_text="Id of the parent task."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)


class SubtaskSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=Task.Status.choices)


class TaskWriteFields(StrictInputSerializer):
    """The fields a client may set on a task, all optional (a PATCH sends only what changes)."""

    title = serializers.CharField(max_length=300, required=False)
    description = serializers.CharField(max_length=20000, allow_blank=True, trim_whitespace=False, required=False)
    status = serializers.ChoiceField(choices=Task.Status.choices, required=False)
    priority = serializers.ChoiceField(choices=Task.Priority.choices, required=False)
    assignee = serializers.IntegerField(min_value=1, max_value=ID_MAX, allow_null=True, required=False,
                                        help_text="User id of a project member; null unassigns.")
    labels = serializers.ListField(child=serializers.CharField(max_length=40), max_length=20, required=False,
                                   help_text="Label names; unknown names are created in the project.")
    start_date = serializers.DateField(allow_null=True, required=False)
    due_date = serializers.DateField(allow_null=True, required=False)
    estimate_hours = serializers.DecimalField(max_digits=6, decimal_places=1, min_value=0, allow_null=True,
                                              coerce_to_string=False, required=False)
    progress = serializers.IntegerField(min_value=0, max_value=100, required=False)
    parent = serializers.IntegerField(  # type: ignore[assignment]  # see TaskOutputFields.parent
        min_value=1, max_value=ID_MAX, allow_null=True, required=False,
        help_text="Id of a task in the same project; null detaches."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, due = attrs.get("start_date"), attrs.get("due_date")
        if start and due and due < start:
            raise serializers.ValidationError({"due_date": "Must not be before start_date."})
        return attrs


class TaskCreateFields(TaskWriteFields):
    project = serializers.IntegerField(min_value=1, max_value=ID_MAX, help_text="Id of a project you may write to.")
    title = serializers.CharField(max_length=300)


_NOT_A_CURSOR = "Is not a cursor of this list; start again from the first page."


class PageParamsSerializer(serializers.Serializer):
    """The page of a list (a number or a cursor) and its size, checked before the query runs."""

    page = serializers.IntegerField(
        min_value=1, max_value=PAGE_NUMBER_MAX, required=False,
        help_text=f"Page number, 1..{PAGE_NUMBER_MAX}; later pages are reached with the `next` and `last` links.",
        error_messages={"max_value": f"Must be 1..{PAGE_NUMBER_MAX}; later pages are reached with the next "
                                     "and last links."},
    )
    cursor = serializers.CharField(
        required=False, max_length=100, error_messages={"max_length": _NOT_A_CURSOR, "blank": _NOT_A_CURSOR},
        help_text="An opaque position from a `next`, `previous` or `last` link (not with `page`). The list is "
                  "ordered by due date (tasks without one last), then id; a cursor page costs the same "
                  "however deep it is.",
    )
    page_size = serializers.IntegerField(
        min_value=1, max_value=PAGE_SIZE_MAX, required=False,
        help_text=f"Items per page, 1..{PAGE_SIZE_MAX} (default {PAGE_SIZE_DEFAULT}).",
    )

    def validate_cursor(self, value: str) -> Cursor:
        try:
            return cursor_decode(value)
        except InvalidInput as exc:
            raise serializers.ValidationError(_NOT_A_CURSOR) from exc

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "cursor" in attrs and "page" in attrs:
            raise serializers.ValidationError({"cursor": "Send a cursor or a page number, not both."})
        return attrs


class PageEnvelopeFields(serializers.Serializer):
    count = serializers.IntegerField(help_text="Items across all pages.")
    next = serializers.URLField(allow_null=True, help_text="The page after this one (a cursor link), or null.")
    previous = serializers.URLField(allow_null=True, help_text="The page before this one (a cursor link), or null.")
    last = serializers.URLField(allow_null=True, help_text="The last page (a cursor link), or null on it.")


def page_of(item: type[serializers.Serializer], *, ref_name: str) -> type[serializers.Serializer]:
    """Describe one page of a paginated list of ``item`` for the schema."""
    meta = type("Meta", (), {"ref_name": ref_name})
    return type(f"{ref_name}Serializer", (PageEnvelopeFields,), {"results": item(many=True), "Meta": meta})
