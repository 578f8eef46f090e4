"""Admin for the assistant's records: runs with their trace and alerts, confirmations and artifacts.

Everything is read-only: these are audit records, written only by the run service and its tools.
"""
from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from agent.artifacts.reader import pieces
from agent.artifacts.store import artifact_delete, artifact_is_expired, artifact_open
from agent.run.audit import run_audit

from .models import Alert, Artifact, Confirmation, Run, RunFeedback, TraceEvent

JSON_SHOWN_MAX_CHARS = 20_000
HEAD_SHOWN_LINES = 20
HEAD_LINE_MAX_CHARS = 500


def pretty_json(value: Any) -> SafeString:
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    if len(text) > JSON_SHOWN_MAX_CHARS:
        text = text[:JSON_SHOWN_MAX_CHARS] + f"\n… ({len(text) - JSON_SHOWN_MAX_CHARS} more characters)"
    return format_html('<pre style="white-space: pre-wrap; max-width: 100ch">{}</pre>', text)


class ReadOnlyMixin:
    """No adding or editing from the admin; deleting stays possible where the model admin allows it."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TraceEventInline(ReadOnlyMixin, admin.TabularInline):
    model = TraceEvent
    extra = 0
    can_delete = False
    fields = ("seq", "kind", "name", "payload_shown", "created_at")
    readonly_fields = fields
    ordering = ("seq",)

    @admin.display(description="payload")
    def payload_shown(self, obj: TraceEvent) -> SafeString:
        return pretty_json(obj.payload)


class AlertInline(ReadOnlyMixin, admin.TabularInline):
    model = Alert
    extra = 0
    can_delete = False
    fields = ("kind", "key", "message", "details", "created_at")
    readonly_fields = fields


class ConfirmationInline(ReadOnlyMixin, admin.TabularInline):
    model = Confirmation
    extra = 0
    can_delete = False
    fields = ("action", "decision", "decided_at", "created_at")
    readonly_fields = fields


class RunFeedbackInline(ReadOnlyMixin, admin.TabularInline):
    model = RunFeedback
    extra = 0
    can_delete = False
    fields = ("user", "rating", "reason", "created_at")
    readonly_fields = fields


class ArtifactInline(ReadOnlyMixin, admin.TabularInline):
    model = Artifact
    extra = 0
    can_delete = False
    fields = ("ref", "source_tool", "item_count", "size_bytes", "expires_at", "archived_at")
    readonly_fields = fields
    show_change_link = True


@admin.register(Run)
class RunAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "user", "capability", "via", "status", "llm_calls", "prompt_tokens", "created_at")
    list_filter = ("status", "capability", "via", "created_at")
    search_fields = ("id", "user__username", "message", "action")
    list_select_related = ("user",)
    date_hierarchy = "created_at"
    readonly_fields = ("id", "user", "status", "message", "action", "capability", "via", "reply", "error_code",
                       "llm_calls", "prompt_tokens", "completion_tokens", "created_at", "updated_at",
                       "audit_shown", "page_context_shown", "data_shown", "progress_shown")
    exclude = ("page_context", "data", "progress")
    inlines = (TraceEventInline, AlertInline, ConfirmationInline, RunFeedbackInline, ArtifactInline)

    @admin.display(description="audit (seed checklist)")
    def audit_shown(self, obj: Run) -> SafeString:
        report = run_audit(obj).as_dict()
        rows = format_html_join(
            "", "<li><strong>{}. {}</strong> {}{}</li>",
            ((p["point"], "pass" if p["passed"] else "FAIL", p["title"],
              format_html_join("", "<br>&nbsp;&nbsp;– {}", ((f,) for f in p["findings"])))
             for p in report["points"]))
        return format_html("<ul class=\"audit\">{}</ul>", rows)

    @admin.display(description="page context")
    def page_context_shown(self, obj: Run) -> SafeString:
        return pretty_json(obj.page_context)

    @admin.display(description="data")
    def data_shown(self, obj: Run) -> SafeString:
        return pretty_json(obj.data)

    @admin.display(description="progress")
    def progress_shown(self, obj: Run) -> SafeString:
        return pretty_json(obj.progress)


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "run", "action", "decision", "decided_at", "created_at")
    list_filter = ("action", "decision")
    search_fields = ("id", "run__id", "run__user__username")
    list_select_related = ("run",)


@admin.register(RunFeedback)
class RunFeedbackAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """What users thought of the answers: staff read it to find the runs worth a look."""

    list_display = ("run", "user", "rating", "reason", "created_at")
    list_filter = ("rating", "created_at")
    search_fields = ("reason", "run__id", "run__message", "user__username")
    list_select_related = ("run", "user")
    date_hierarchy = "created_at"


@admin.register(Alert)
class AlertAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("kind", "run", "key", "message", "created_at")
    list_filter = ("kind", "created_at")
    search_fields = ("message", "key", "run__id")
    list_select_related = ("run",)


@admin.register(TraceEvent)
class TraceEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("run", "seq", "kind", "name", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "run__id")
    list_select_related = ("run",)
    exclude = ("payload",)
    readonly_fields = ("payload_shown",)

    @admin.display(description="payload")
    def payload_shown(self, obj: TraceEvent) -> SafeString:
        return pretty_json(obj.payload)


@admin.register(Artifact)
class ArtifactAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("ref", "owner", "source_tool", "item_count", "size_bytes", "content_type", "truncated",
                    "incomplete", "created_at", "expires_at", "archived_at")
    list_filter = ("source_tool", "content_type", "truncated", "incomplete", "is_summary",
                   ("archived_at", admin.EmptyFieldListFilter), ("expired_at", admin.EmptyFieldListFilter))
    search_fields = ("ref", "owner__username", "sha256", "source_tool")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    exclude = ("source_args", "schema", "meta")
    readonly_fields = ("source_args_shown", "schema_shown", "meta_shown", "content_head")

    @admin.display(description="source arguments")
    def source_args_shown(self, obj: Artifact) -> SafeString:
        return pretty_json(obj.source_args)

    @admin.display(description="schema")
    def schema_shown(self, obj: Artifact) -> SafeString:
        return pretty_json(obj.schema)

    @admin.display(description="meta")
    def meta_shown(self, obj: Artifact) -> SafeString:
        return pretty_json(obj.meta)

    @admin.display(description=f"first {HEAD_SHOWN_LINES} lines")
    def content_head(self, obj: Artifact) -> SafeString | str:
        """Show the first lines only, streamed: the file may be many megabytes."""
        if not obj.content_path:
            return "(content lost)"
        lines: list[str] = []
        try:
            with artifact_open(obj) as fh:
                for piece in pieces(fh):
                    if piece.line > HEAD_SHOWN_LINES:
                        break
                    if piece.first:
                        cut = len(piece.text) > HEAD_LINE_MAX_CHARS or not piece.last
                        lines.append(piece.text[:HEAD_LINE_MAX_CHARS] + (" …" if cut else ""))
        except FileNotFoundError:
            return "(content file not found)"
        state = " (expired: the assistant can no longer read it)" if artifact_is_expired(obj) else ""
        return format_html('<pre style="white-space: pre-wrap; max-width: 100ch">{}</pre>{}', "\n".join(lines), state)

    def delete_model(self, request: HttpRequest, obj: Artifact) -> None:
        artifact_delete(artifact=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Artifact]) -> None:
        for artifact in queryset:
            artifact_delete(artifact=artifact)
