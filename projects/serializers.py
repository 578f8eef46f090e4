"""Serializer building blocks shared by the project and task APIs, and the error schema."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from .models import Membership


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class ProjectRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    name = serializers.CharField()


class MemberSerializer(serializers.Serializer):
    user = UserRefSerializer()
    role = serializers.ChoiceField(choices=Membership.Role.choices)


# Fields whose JSON value must be a string: DRF would turn 1e308 into "1e+308" and 5 into UUID(int=5).
_TEXT_FIELDS = (serializers.CharField, serializers.UUIDField)


def _not_text(field: serializers.Field, value: Any) -> bool:
    if value is None or isinstance(value, str):
        return False
    if isinstance(field, serializers.ListField) and isinstance(field.child, _TEXT_FIELDS):
        return isinstance(value, list) and any(not isinstance(item, str) for item in value)
    return isinstance(field, _TEXT_FIELDS)


class StrictInputSerializer(serializers.Serializer):
    """Reject keys the serializer does not declare, and text fields given as numbers, lists or booleans.

    Each is named with its reason instead of being ignored or coerced.
    """

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError({key: ["Unknown field."] for key in unknown})
            typed = sorted(name for name, field in self.fields.items() if name in data and _not_text(field, data[name]))
            if typed:
                raise serializers.ValidationError({name: ["Must be a string."] for name in typed})
        return super().to_internal_value(data)


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable code, e.g. invalid, not_found, forbidden.")
    message = serializers.CharField(help_text="Names the field and the reason.")
    # The key of the error shape; DRF's metaclass moves declared fields aside, so Serializer.fields still works.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Reasons per field path.",
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorBodySerializer()


_ERROR_TEXT = {
    400: "Invalid input; the message and `fields` name the field and the reason.",
    401: "Not authenticated.",
    403: "Authenticated, but not allowed: only a viewer of the project, or a request signed in by session "
         "cookie that lacks its CSRF token (code `forbidden`).",
    404: "Does not exist, or belongs to a project you are not a member of.",
    409: "The state changed first (code `conflict`), e.g. the confirmation was already decided "
         "or a task changed since the run (`changed_since`).",
    410: "Too late: the time it was possible in has passed (e.g. code `undo_expired`).",
    413: "The request body is larger than REQUEST_BODY_MAX_BYTES (code `too_large`).",
    415: "The body is not JSON, a form or multipart (code `unsupported_media_type`).",
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Describe the error answers of an operation for the schema."""
    return {code: OpenApiResponse(ErrorSerializer, description=_ERROR_TEXT[code]) for code in statuses}
