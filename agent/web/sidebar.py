"""The htmx sidebar: the same run service as the API, rendered as partials."""
from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from agent.capabilities.workload.reassign import reassign_route
from agent.models import Run
from agent.run.feedback import feedback_of, run_feedback_give
from agent.run.service import run_confirm, run_get, run_request
from agent.run.undo import run_undo
from agent.web.run_partial import run_view_context
from agent.words.errors import TEXTS as ERROR_TEXTS
from agent.words.errors import error_words
from agent.words.language import Language, language_of
from agent.words.sidebar import WORDS
from agent.words.undo import undo_refusal_words
from pm_assistant.errors import ApplicationError, InvalidInput, NotFound, validation_payload
from pm_assistant.json_input import JSONInputError, json_loads_bounded, json_refuse_lone_surrogates

from .api import RunRequestApi
from .sidebar_conversation import current_or_new_conversation

# Capabilities whose success changes what the page shows, so the page refreshes its list.
_CHANGES_TASKS = {"crud", "decompose"}


def _render_run(request: HttpRequest, run: Run, *, status: int = 200, undo_refused: str = "") -> HttpResponse:
    context = {**run_view_context(run), "undo_refused": undo_refused}
    data = context["view"]["data"] if isinstance(context["view"]["data"], dict) else {}
    response = render(request, "agent/_run.html", context, status=status)
    changed = run.capability in _CHANGES_TASKS and run.status == Run.Status.DONE and not run.data.get("rejected")
    # Rows of deleted tasks were dropped from the request: the page refreshes its list too.
    if changed or data.get("stale_task_ids"):
        detail: dict[str, Any] = {"run": str(run.pk)}
        deleted = data.get("deleted") if changed else None
        if isinstance(deleted, dict):
            # The page of the deleted task goes to the task list and says so, rather than asking for a 404.
            detail.update(deleted_task_id=deleted.get("id"), message=run.reply)
        response["HX-Trigger"] = json.dumps({"tasks-changed": detail})
    return response


def render_error(request: HttpRequest, exc: ApplicationError, *, asked: str,
                 language: Language | None = None) -> HttpResponse:
    """Render an application error as the sidebar's error bubble."""
    return _render_error_payload(request, exc.as_dict(), asked=asked, status=exc.http_status, language=language)


def _render_error_payload(request: HttpRequest, error: dict[str, Any], *, asked: str, status: int,
                          language: Language | None = None) -> HttpResponse:
    """Render a refused request in words a person reads, in the language of the message it answers (the one
    sent, else the stored run's); a stale task row makes the page refresh its list."""
    language = language or language_of(asked)
    words, stale = error_words(error, language)
    response = render(request, "agent/_error.html",
                      {"error": {**error, "message": words}, "asked": asked, "lang": language,
                       "failed": ERROR_TEXTS[language]["failed"]}, status=status)
    if stale:
        response["HX-Trigger"] = json.dumps({"tasks-changed": {}})
    return response


def _stream_token(request: HttpRequest) -> str | None:
    """The token the page follows this request's run under (agent/web/stream_views.py); anything else is ignored."""
    try:
        return str(UUID(request.headers.get("X-Assistant-Stream", "")))
    except ValueError:
        return None


def _page_context_sent(request: HttpRequest) -> Any:
    """The page context the sidebar posted, read as bounded JSON; unreadable JSON is refused naming the field."""
    text = request.POST.get("page_context", "")
    try:
        raw = json_loads_bounded(text)
        json_refuse_lone_surrogates(text, raw)
    except JSONInputError as exc:
        raise InvalidInput(f"page_context: {exc}", field="page_context") from None
    return raw


@login_required
@require_POST
def sidebar_request(request: HttpRequest) -> HttpResponse:
    """Run a free-text message or a quick action sent from the page."""
    message = request.POST.get("message", "").strip() or None
    action = request.POST.get("action", "").strip() or None
    asked = message or action or ""
    try:
        raw = _page_context_sent(request)
    except InvalidInput as error:
        return render_error(request, error, asked=asked)
    # The API's own input check, so the sidebar refuses exactly what the API refuses (e.g. a NUL in the message).
    sent = {name: value for name, value in (("message", message), ("action", action)) if value is not None}
    data = RunRequestApi.RunRequestInputSerializer(data={**sent, "page_context": raw})
    if not data.is_valid():
        return _render_error_payload(request, validation_payload(data.errors), asked=asked, status=400)
    try:
        run = run_request(user=request.user, page_context=data.validated_data["page_context"],  # type: ignore[arg-type]
                          message=data.validated_data.get("message"), action=data.validated_data.get("action"),
                          conversation=current_or_new_conversation(request), stream_token=_stream_token(request))
    except ApplicationError as exc:
        return render_error(request, exc, asked=asked)
    return _render_run(request, run)


@login_required
@require_POST
def sidebar_reassign(request: HttpRequest) -> HttpResponse:
    """Press the workload answer's "Reassign" move: the ids it carries are checked again, then crud's assign runs
    on a route the server built (no model) and stops on its confirmation card (workload/reassign.py)."""
    language: Language = "zh" if request.POST.get("lang") == "zh" else "en"
    try:
        raw = _page_context_sent(request)
    except InvalidInput as error:
        return render_error(request, error, asked="", language=language)
    try:
        message, route = reassign_route(user=request.user, task=request.POST.get("task", ""),  # type: ignore[arg-type]
                                        assignee=request.POST.get("assignee", ""), language=language)
    except ApplicationError as exc:
        # The move's own refusal, worded for a person and naming the field (task or assignee).
        return render(request, "agent/_error.html", {"error": exc.as_dict(), "asked": "", "lang": language,
                                                     "failed": ERROR_TEXTS[language]["failed"]},
                      status=exc.http_status)
    try:
        run = run_request(user=request.user, page_context=raw, message=message,  # type: ignore[arg-type]
                          conversation=current_or_new_conversation(request), stream_token=_stream_token(request),
                          proposed=route)
    except ApplicationError as exc:
        return render_error(request, exc, asked="", language=language)
    return _render_run(request, run)


def _run_language(request: HttpRequest, run_id: str) -> Language:
    """The language of one of the user's own runs, by its stored message (English for any other id)."""
    try:
        return language_of(run_get(user=request.user, run_id=run_id).message)  # type: ignore[arg-type]
    except ApplicationError:
        return "en"


@login_required
@require_POST
def sidebar_confirm(request: HttpRequest, run_id: str) -> HttpResponse:
    """Approve or reject the run's pending action; a plan card sends its steps and the ones left checked."""
    dropped = sorted(set(request.POST.getlist("plan_steps")) - set(request.POST.getlist("keep_steps")))
    try:
        run = run_confirm(user=request.user, run_id=run_id, decision=request.POST.get("decision", ""),  # type: ignore[arg-type]
                          drop_steps=dropped, confirmation_id=request.POST.get("confirmation_id") or None)
    except ApplicationError as exc:
        return render_error(request, exc, asked="", language=_run_language(request, run_id))
    return _render_run(request, run)


@login_required
@require_POST
def sidebar_undo(request: HttpRequest, run_id: str) -> HttpResponse:
    """Undo the run's task updates; a refusal shows its reason on the run, which stays as it was."""
    try:
        run = run_undo(user=request.user, run_id=run_id)  # type: ignore[arg-type]
    except NotFound as exc:
        return render_error(request, exc, asked="")
    except ApplicationError as exc:
        # 409 for every refusal, expired included: the sidebar swaps it in place of the run.
        run = run_get(user=request.user, run_id=run_id)  # type: ignore[arg-type]
        return _render_run(request, run, status=409,
                           undo_refused=undo_refusal_words(exc, run=run, language=language_of(run.message)))
    return _render_run(request, run)


@login_required
@require_POST
def sidebar_feedback(request: HttpRequest, run_id: str) -> HttpResponse:
    """Rate the run's answer up or down, with an optional reason; the footer's feedback part comes back."""
    try:
        feedback = run_feedback_give(user=request.user, run_id=run_id,  # type: ignore[arg-type]
                                     rating=request.POST.get("rating", ""), reason=request.POST.get("reason", ""))
    except ApplicationError as exc:
        try:
            run = run_get(user=request.user, run_id=run_id)  # type: ignore[arg-type]
        except ApplicationError:
            return render_error(request, exc, asked="")
        return render(request, "agent/_feedback.html", {
            "run": run, "feedback": feedback_of(run), "error": exc.message,
            "answer_words": WORDS[language_of(run.message)]},
            status=exc.http_status)
    return render(request, "agent/_feedback.html", {
        "run": feedback.run, "feedback": feedback, "saved": True,
        "answer_words": WORDS[language_of(feedback.run.message)]})


@login_required
@require_GET
def sidebar_run(request: HttpRequest, run_id: str) -> HttpResponse:
    """Render one of the user's runs again: a running one polls this until it has finished."""
    try:
        run = run_get(user=request.user, run_id=run_id)  # type: ignore[arg-type]
    except ApplicationError as exc:
        return render_error(request, exc, asked="")
    return _render_run(request, run)
