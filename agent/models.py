"""Assistant conversations and runs, their confirmations, traces and alerts, and externalized artifacts."""
from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Conversation(models.Model):
    """A thread of runs one user had with the assistant; the sidebar shows the current one."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_conversations")
    title = models.CharField(max_length=120, blank=True, help_text="The first request, shortened.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, help_text="When a run was last added.")

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["user", "updated_at"], name="conversation_user_time")]

    def __str__(self) -> str:
        return self.title or f"conversation {self.id}"


class Run(models.Model):
    class Status(models.TextChoices):
        DONE = "done"
        NEEDS_CONFIRMATION = "needs_confirmation"
        NEEDS_CLARIFICATION = "needs_clarification"
        RUNNING = "running"
        ERROR = "error"
        # Its owner stopped it while it ran (agent.run.service.run_stop).
        STOPPED = "stopped"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_runs")
    # Null for runs made before conversations existed; a run keeps its trace if its conversation goes.
    conversation = models.ForeignKey(Conversation, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="runs")
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.RUNNING)
    message = models.TextField(blank=True)
    action = models.CharField(max_length=40, blank=True)
    page_context = models.JSONField(default=dict, help_text="The validated PageContext, for audit.")
    capability = models.CharField(max_length=20, blank=True)
    via = models.CharField(max_length=12, blank=True)
    reply = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    progress = models.JSONField(default=dict, blank=True)
    error_code = models.CharField(max_length=40, blank=True)
    llm_calls = models.PositiveIntegerField(default=0)
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    undo_until = models.DateTimeField(null=True, blank=True,
                                      help_text="Until when its task changes can be undone; null: nothing to undo.")
    undone_at = models.DateTimeField(null=True, blank=True, help_text="When its changes were undone (once only).")
    audit = models.JSONField(null=True, blank=True,
                             help_text="The four-point audit of its trace, run when the run stopped.")
    wrote_at = models.DateTimeField(null=True, blank=True,
                                    help_text="When its first change to tasks committed: then it cannot be stopped.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "created_at"], name="run_user_time"),
                   # A transcript reads a conversation's latest runs, and those before one of them.
                   models.Index(fields=["conversation", "created_at", "id"], name="run_conversation_time")]

    def __str__(self) -> str:
        return f"{self.capability or '?'} run {self.id} ({self.status})"


class RunFeedback(models.Model):
    """A user's thumbs up or down on one answer, with an optional reason; one per run and user."""

    class Rating(models.TextChoices):
        UP = "up"
        DOWN = "down"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="feedback")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assistant_feedback")
    rating = models.CharField(max_length=4, choices=Rating.choices)
    reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["run", "user"], name="run_feedback_once_per_user")]

    def __str__(self) -> str:
        return f"{self.rating} on run {self.run_id}"


class Confirmation(models.Model):
    """A pending destructive action; single use, decided by the run's owner."""

    class Decision(models.TextChoices):
        APPROVE = "approve"
        REJECT = "reject"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="confirmations")
    action = models.CharField(max_length=40)
    facts = models.JSONField(default=dict, help_text="Read from the database, never model text.")
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.action} ({self.decision or 'pending'})"


class TraceEvent(models.Model):
    class Kind(models.TextChoices):
        NODE = "node"
        LLM_CALL = "llm_call"
        TOOL_CALL = "tool_call"
        BINDING = "binding"
        ARTIFACT = "artifact"
        ALERT = "alert"

    # Found by the (run, seq) constraint's index, which leads with the run: no index of its own to keep.
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    name = models.CharField(max_length=80)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="trace_event_unique_seq")]

    def __str__(self) -> str:
        return f"{self.seq}. {self.kind} {self.name}"


class Alert(models.Model):
    class Kind(models.TextChoices):
        VIEW_OVERWRITE = "view_overwrite", "A node tried to overwrite a context view"
        FACT_MISMATCH = "fact_mismatch", "A model-stated fact disagrees with the database"
        DUPLICATE_FORM = "duplicate_form", "One source in two forms in one prompt"
        BINDING_OVERRIDE = "binding_override", "A model-typed value differed from its binding"
        PREVIEW_MISMATCH = "preview_mismatch", "A preview is not a substring of its source"
        RAW_CONTEXT = "raw_context", "Raw page-context data in a prompt"
        MODEL_ID = "model_id", "The model named an id the user never gave"
        NUMBER_MISMATCH = "number_mismatch", "A model's text stated a number that is not a verified figure"
        FIGURES_MISMATCH = "figures_mismatch", "A report's figures disagreed with their independent recount"
        LITERAL_ID = "literal_id", "A plan typed an id instead of binding it"
        UNKNOWN_TOOL = "unknown_tool", "A plan named a tool outside the plan-tool registry"
        PLAN_TOO_LONG = "plan_too_long", "A plan had more steps than allowed"
        INVALID_PLAN = "invalid_plan", "A plan or a step's arguments did not fit the schema"
        BAD_BINDING = "bad_binding", "A binding named a missing or later step"
        BINDING_UNRESOLVED = "binding_unresolved", "A binding's path resolved to nothing"
        STEP_FAILED = "step_failed", "A plan step failed when it ran"
        INSPECTION_DROPPED = "inspection_dropped", "An inspection past its budget or unusable was not run"
        AUDIT_FAILED = "audit_failed", "A run failed a point of the four-point audit"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="alerts")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=200, help_text="Deduplicates the same alert when a node re-runs.")
    message = models.TextField()
    details = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["run", "kind", "key"], name="alert_unique_per_run")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.message[:60]}"


class Artifact(models.Model):
    """A tool result too large for a prompt, stored outside it (seed 000, forced externalization).

    The content lives in the "artifacts" storage; the row keeps its source, hash, schema,
    permission scope, lifetime and the flags a reader needs to know whether it holds everything.
    """

    class ContentType(models.TextChoices):
        NDJSON = "application/x-ndjson", "One JSON object per line"
        JSON = "application/json", "One JSON document"
        TEXT = "text/plain", "Text"

    ref = models.CharField(max_length=20, unique=True, help_text='Public id, "art_" and 12 hex digits.')
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="artifacts")
    project_ids = models.JSONField(
        default=list, blank=True,
        help_text="Permission scope: the reader must own the artifact and still be a member of every one.",
    )
    run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="artifacts")
    source_tool = models.CharField(max_length=80)
    source_args = models.JSONField(default=dict, blank=True)
    sha256 = models.CharField(max_length=64, help_text="Of the stored bytes.")
    schema = models.JSONField(default=dict, blank=True, help_text="Kind of content and its fields with types.")
    meta = models.JSONField(default=dict, blank=True, help_text="The result's keys besides its items (count...).")
    size_bytes = models.PositiveBigIntegerField()
    item_count = models.PositiveIntegerField(default=0)
    line_count = models.PositiveIntegerField(default=0)
    content_path = models.CharField(max_length=255, help_text="Name in the artifacts storage.")
    content_type = models.CharField(max_length=32, choices=ContentType.choices)
    is_summary = models.BooleanField(default=False, help_text="The content itself is a summary of a source.")
    truncated = models.BooleanField(default=False, help_text="The source had more rows than were stored.")
    incomplete = models.BooleanField(default=False, help_text="The source reported a partial result.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    expired_at = models.DateTimeField(null=True, blank=True, help_text="When the expiry job marked it.")
    archived_at = models.DateTimeField(null=True, blank=True)
    source_version = models.BigIntegerField(
        null=True, blank=True,
        help_text="The task log's revision when the source was read (tasks/revision.py); null: not a task source.")
    indexed_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When its index of task rows was built; null: no index.")

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["owner", "created_at"], name="artifact_owner_time"),
            models.Index(fields=["expires_at"], name="artifact_expires"),
        ]

    def __str__(self) -> str:
        return f"{self.ref} ({self.source_tool}, {self.item_count} items)"


class ArtifactIndexEntry(models.Model):
    """One task row of an artifact: its key facts and where its line is in the stored content.

    Built when the artifact is stored (agent/artifacts/index.py), so a search reads these rows and
    then only the lines they point at, however large the content.
    """

    artifact = models.ForeignKey(Artifact, on_delete=models.CASCADE, related_name="index_entries")
    line = models.PositiveIntegerField(help_text="1-based line of the row in the stored content.")
    offset = models.PositiveBigIntegerField(help_text="Byte offset of that line.")
    length = models.PositiveIntegerField(help_text="Bytes of that line, without its newline.")
    key = models.CharField(max_length=40, blank=True)
    title = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=20, blank=True)
    assignee = models.CharField(max_length=150, blank=True)
    due = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["artifact", "line"]
        constraints = [models.UniqueConstraint(fields=["artifact", "line"], name="artifact_index_line")]

    def __str__(self) -> str:
        return f"{self.artifact_id}:{self.line} {self.key}"
