"""Answers for requests no view takes: under /api/ in the shared JSON error shape, elsewhere the HTML page."""
from __future__ import annotations

import sys
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from django.views.defaults import server_error as html_server_error
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from pm_assistant.errors import server_error_payload

# Errors Django itself answers (404, 403, 400) with its handlers; anything else under /api/ is ours to word.
_DJANGO_ANSWERS = (Http404, PermissionDenied, SuspiciousOperation, BadRequest)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer 404; an API client (e.g. /api/tasks/abc/, which no route matches) gets JSON, not a page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "not_found", "message": "Not found.", "fields": {}}}, status=404)
    return page_not_found(request, exception or Exception("not found"))


class SchemaAccess(BasePermission):
    """Serve the API schema and docs to anyone, or only to signed-in users when API_SCHEMA_REQUIRES_LOGIN is set."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return not settings.API_SCHEMA_REQUIRES_LOGIN or bool(request.user and request.user.is_authenticated)


def server_error(request: HttpRequest) -> HttpResponse:
    """Answer 500 when DEBUG is off: under /api/ the JSON error shape with a reference, elsewhere the page."""
    if request.path.startswith("/api/"):
        # Django calls this inside its except block: the error being handled is the current one.
        exc = sys.exc_info()[1] or RuntimeError(f"an error outside any view on {request.path}")
        return JsonResponse({"error": server_error_payload(exc)}, status=500)
    return html_server_error(request)


class ApiErrorMiddleware:
    """Any uncaught error in a view under /api/ is the JSON error shape with a reference id, DEBUG on or off.

    DRF's views already answer through pm_assistant.errors.api_exception_handler; this covers the plain
    Django views under /api/ (the event stream, the schema). The traceback is logged, never sent.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith("/api/") or isinstance(exception, _DJANGO_ANSWERS):
            return None
        return JsonResponse({"error": server_error_payload(exception)}, status=500)
