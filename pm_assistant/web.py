"""Helpers every page view shares: the request type, refusals, form errors, partial responses.

They know no app: each app answers 404 for its own objects (projects.shortcuts, tasks.shortcuts).
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django_htmx.http import reswap, retarget
from django_htmx.middleware import HtmxDetails

from pm_assistant.errors import ApplicationError, InvalidInput


class PageRequest(HttpRequest):
    """A request to a page behind login_required, with django-htmx's details."""

    user: User
    htmx: HtmxDetails


def form_error(form: Any, exc: InvalidInput, *, field: str | None) -> None:
    """Show a service's refusal on a form in words: on its field without the API's "name: " prefix,
    or above the form naming the field ("Due date: must not be before the start date.")."""
    message = exc.message
    if exc.field and message.startswith(f"{exc.field}: "):
        rest = message[len(exc.field) + 2:]
        message = rest[:1].upper() + rest[1:] if field == exc.field else \
            f"{exc.field.replace('_', ' ').capitalize()}: {rest}"
    form.add_error(field, message)


def refusal(request: PageRequest, exc: ApplicationError) -> HttpResponse:
    """Answer a refused request with its status and message; htmx callers get it as a toast."""
    context = {"error": exc, "status": exc.http_status}
    if request.htmx:
        response = HttpResponse(render_to_string("tasks/_alert.html", context, request), status=exc.http_status)
        return reswap(retarget(response, "#toasts"), "beforeend")
    return HttpResponse(render_to_string("tasks/refused.html", context, request), status=exc.http_status)


def render_partial(request: PageRequest, template: str | None, context: dict[str, Any], *, status: int = 200,
                   oob: tuple[str, ...] = ()) -> HttpResponse:
    """Render a partial (None: an empty main answer) plus out-of-band partials and the page context."""
    parts = [render_to_string(template, context, request)] if template else []
    parts += [render_to_string(name, {**context, "oob": True}, request) for name in oob]
    if "page_context" in context:
        parts.append(render_to_string("tasks/_page_context.html", {**context, "oob": True}, request))
    return HttpResponse("".join(parts), status=status)
