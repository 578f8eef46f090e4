"""Refuse request bodies over REQUEST_BODY_MAX_BYTES with 413 before any view reads them."""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .errors import PayloadTooLarge


def body_too_large_error(size: int | None = None) -> PayloadTooLarge:
    """Build the 413 error naming the limit."""
    limit = settings.REQUEST_BODY_MAX_BYTES
    shown = f" ({size} bytes)" if size is not None else ""
    return PayloadTooLarge(f"body: the request body{shown} is larger than the limit of {limit} bytes.",
                           field="body")


class BodySizeLimitMiddleware:
    """Answer 413 in the shared error shape when the declared body is over the limit.

    The WSGI server never hands a view more than Content-Length bytes, so the header is the
    body's size; the API's JSON parser checks again while reading, for callers without it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0
        if size > settings.REQUEST_BODY_MAX_BYTES:
            error = body_too_large_error(size)
            return JsonResponse({"error": error.as_dict()}, status=error.http_status)
        return self.get_response(request)
