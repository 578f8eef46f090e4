"""Helpers every page view shares: 404 outside the user's projects, refusals, partial responses."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django_htmx.http import reswap, retarget
from django_htmx.middleware import HtmxDetails

from pm_assistant.errors import ApplicationError, InvalidInput, NotFound
from projects.models import Project
from projects.selectors import AnyUser, membership_role, project_get_for_user, role_can_write
from tasks.models import Task
from tasks.selectors import task_get_for_user


class PageRequest(HttpRequest):
    """A request to a page behind login_required, with django-htmx's details."""

    user: User
    htmx: HtmxDetails


def task_or_404(*, user: AnyUser, task_id: int) -> Task:
    """Return the task, or raise Http404 when the user cannot see it."""
    try:
        return task_get_for_user(user=user, task_id=task_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def project_or_404(*, user: AnyUser, project_id: int) -> Project:
    """Return the project, or raise Http404 when the user is not a member."""
    try:
        return project_get_for_user(user=user, project_id=project_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def can_write(*, user: AnyUser, project: Project) -> bool:
    """Tell templates whether to show edit controls (viewers see none)."""
    return role_can_write(membership_role(user=user, project=project))


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
