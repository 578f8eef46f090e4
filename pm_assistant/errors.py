"""Domain errors and the one place that maps every error to JSON.

Every error answer has the same shape::

    {"error": {"code": "<stable code>", "message": "<names the field and the reason>",
               "fields": {"<field path>": ["<reason>", ...]}}}
"""
from __future__ import annotations

import logging
from typing import Any
from uuid import uuid4

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions as drf_exceptions
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    """An expected failure with a stable code, shown to the user as it is."""

    code = "error"
    http_status: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code:
            self.code = code

    def as_dict(self) -> dict[str, Any]:
        fields = {self.field: [self.message]} if self.field else {}
        return {"code": self.code, "message": self.message, "fields": fields}


class InvalidInput(ApplicationError):
    code = "invalid"


class NotFound(ApplicationError):
    code = "not_found"
    http_status = status.HTTP_404_NOT_FOUND


class Forbidden(ApplicationError):
    code = "forbidden"
    http_status = status.HTTP_403_FORBIDDEN


class Conflict(ApplicationError):
    code = "conflict"
    http_status = status.HTTP_409_CONFLICT


class Gone(ApplicationError):
    """It existed, but its time is over (an expired undo)."""

    code = "gone"
    http_status = status.HTTP_410_GONE


class PayloadTooLarge(ApplicationError):
    code = "too_large"
    http_status = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


def _flatten(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """Turn DRF's nested error detail into ``{"a.b[0].c": [reasons]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            # DRF names a list's item by its index: that is written [i], like a list of objects' items.
            item = isinstance(key, int) or (isinstance(key, str) and key.isdigit())
            name = str(key) if not prefix else (f"{prefix}[{key}]" if item else f"{prefix}.{key}")
            if key == "non_field_errors" and prefix:
                name = prefix
            out.update(_flatten(value, "" if key == "non_field_errors" and not prefix else name))
    elif isinstance(detail, list) and detail and all(not isinstance(d, (dict, list)) for d in detail):
        out.setdefault(prefix or "body", []).extend(str(d) for d in detail)
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if value:
                out.update(_flatten(value, f"{prefix}[{index}]"))
    else:
        out.setdefault(prefix or "body", []).append(str(detail))
    return out


def validation_payload(detail: Any) -> dict[str, Any]:
    """Build the error body for a validation failure, naming the first field in the message."""
    fields = _flatten(detail)
    message = "; ".join(f"{name}: {reasons[0]}" for name, reasons in fields.items()) or "Invalid input."
    return {"code": "invalid", "message": message, "fields": fields}


def server_error_payload(exc: BaseException) -> dict[str, Any]:
    """Log an error nobody expected with its traceback under a new reference id, and return the JSON error
    body that names only the reference: no exception text, path or variable leaves the server."""
    reference = uuid4().hex[:12]
    logger.error("Unexpected error, reference %s", reference, exc_info=(type(exc), exc, exc.__traceback__))
    return {"code": "server_error", "reference": reference, "fields": {},
            "message": f"Something went wrong on our side and the request was not completed (reference "
                       f"{reference}). Try again; if it keeps failing, quote the reference."}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map domain, Django and DRF errors to the one JSON error shape; anything else is a logged 500."""
    if isinstance(exc, ApplicationError):
        return Response({"error": exc.as_dict()}, status=exc.http_status)
    if isinstance(exc, drf_exceptions.ValidationError):
        return Response({"error": validation_payload(exc.detail)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        set_rollback()
        return Response({"error": server_error_payload(exc)}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    codes = {
        drf_exceptions.NotAuthenticated: "not_authenticated",
        drf_exceptions.AuthenticationFailed: "authentication_failed",
        drf_exceptions.PermissionDenied: "forbidden",
        drf_exceptions.NotFound: "not_found",
        drf_exceptions.MethodNotAllowed: "method_not_allowed",
        drf_exceptions.ParseError: "malformed_request",
        drf_exceptions.UnsupportedMediaType: "unsupported_media_type",
        drf_exceptions.Throttled: "throttled",
    }
    code = next((c for cls, c in codes.items() if isinstance(exc, cls)), "error")
    message = str(getattr(exc, "detail", exc))
    # A body that cannot be read is the body's fault: name it, as the size limit's 413 does.
    fields = {"body": [message]} if code == "malformed_request" else {}
    response.data = {"error": {"code": code, "message": message, "fields": fields}}
    return response
