"""Template helpers for a reply's body: sanitised Markdown with links, list rows as pages show them, the footer."""
from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from agent.models import Run, TraceEvent
from agent.words.sidebar import WORDS
from pm_assistant.dates import date_shown
from pm_assistant.markdown import markdown_html
from pm_assistant.vocabulary import STATUS_LABELS, STATUS_LABELS_ZH

register = template.Library()


def _mentioned(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The tasks a run's data names, each with its id and key (rows, one task, a ranked list's top: the risk
    list, what next, a summary's risks)."""
    rows = list(data.get("items") or [])
    if isinstance(data.get("task"), dict):
        rows.append(data["task"])
    for part in data.values():
        if isinstance(part, dict) and isinstance(part.get("top"), list):
            rows.extend(part["top"])
    return [row for row in rows if isinstance(row, dict) and isinstance(row.get("id"), int) and row.get("key")]


def reply_links(data: dict[str, Any], text: str) -> dict[str, str]:
    """Every task key and project name the run's data holds that the text mentions, with its page."""
    links: dict[str, str] = {}
    for row in _mentioned(data):
        if str(row["key"]) in text:
            links[str(row["key"])] = reverse("task-detail", args=[row["id"]])
        if row.get("project") and isinstance(row.get("project_id"), int) and str(row["project"]) in text:
            links[str(row["project"])] = reverse("project-detail", args=[row["project_id"]])
    return links


@register.simple_tag
def reply_html(view: dict[str, Any]) -> SafeString:
    """The reply as sanitised Markdown, tasks and projects it names linked to their pages."""
    data = view.get("data") if isinstance(view.get("data"), dict) else {}
    text = str(view.get("reply") or "")
    html = markdown_html(text, links=reply_links(data or {}, text))
    return mark_safe(html)  # noqa: S308 - nh3 cleaned it with an allow-list


@register.filter
def status_label(status: str, language: str = "en") -> str:
    """A status as the task pages show it ("To do"), or in Chinese under an answer to a Chinese message."""
    labels = STATUS_LABELS_ZH if language == "zh" else STATUS_LABELS
    return labels.get(status, status)  # type: ignore[call-overload]


@register.simple_tag(takes_context=True)
def say(context: Any, word: str, **fields: Any) -> str:
    """One of the sidebar's words around an answer (agent.words.sidebar) in the answer's language, its
    {fields} filled and escaped; English where no run set the language (a page's own risk panel)."""
    words = context.get("answer_words") or WORDS["en"]
    return format_html(words[word], **fields) if fields else words[word]


@register.simple_tag(takes_context=True)
def chip_label(context: Any, action: Any) -> str:
    """A quick action's label on a chip under an answer, in the answer's language where it has one."""
    words = context.get("answer_words") or WORDS["en"]
    return str(words.get(f"action_{action.action}", action.label))


@register.simple_tag(takes_context=True)
def say_sources(context: Any, sources: list[str]) -> str:
    """Where a risk factor's facts came from ("database and server_clock"), in the answer's language."""
    words = context.get("answer_words") or WORDS["en"]
    return words["and"].join(words.get(f"source_{source}", source) for source in sources)


@register.filter
def shown_date(value: Any) -> str:
    """A date in an answer as the pages show it ("Nov 28, 2026"), not as the API carries it."""
    return date_shown(value)


@register.filter
def item_overdue(item: dict[str, Any], today: str) -> bool:
    """Tell whether a reply's task row is past its due date and still open, by the server's clock (today,
    an ISO date: agent.web.run_partial.run_view_context reads it once for all the rows)."""
    due = item.get("due_date")
    return bool(due) and item.get("status") != "done" and str(due) < today


@register.simple_tag
def run_footer(run: Run) -> dict[str, Any]:
    """What the footer says: which model answered (or that none did) and how long the run took."""
    seconds = max((run.updated_at - run.created_at).total_seconds(), 0.0)
    if settings.LLM_PROVIDER == "offline":
        model = "Offline model"
    elif run.status == Run.Status.STOPPED and not run.llm_calls:
        model = "Stopped"  # a model may have been answering when the stop came: "no model needed" would be wrong
    elif not run.llm_calls:
        model = "No model needed"
    else:
        # Read with the transcript's runs (agent.web.run_partial.with_model_calls), else for this run alone.
        calls = getattr(run, "model_calls", None)
        if calls is None:
            calls = TraceEvent.objects.filter(run=run, kind=TraceEvent.Kind.LLM_CALL).values_list("payload", flat=True)
        names = sorted({str(p.get("model") or "") for p in calls} - {""})
        providers = {str(p.get("provider") or "") for p in calls}
        model = "Offline model" if providers == {"offline"} else (", ".join(names) or "Model")
    return {"model": model, "seconds": f"{seconds:.1f}", "trace_url": reverse("assistant-trace", args=[run.pk])}
