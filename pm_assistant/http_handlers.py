"""Answers for requests no view takes: under /api/ in the shared JSON error shape, elsewhere the HTML page."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answer 404; an API client (e.g. /api/tasks/abc/, which no route matches) gets JSON, not a page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": "not_found", "message": "Not found.", "fields": {}}}, status=404)
    return page_not_found(request, exception or Exception("not found"))


class SchemaAccess(BasePermission):
    """Serve the API schema and docs to anyone, or only to signed-in users when API_SCHEMA_REQUIRES_LOGIN is set."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return not settings.API_SCHEMA_REQUIRES_LOGIN or bool(request.user and request.user.is_authenticated)
