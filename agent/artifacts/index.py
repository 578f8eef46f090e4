"""The index of an artifact's task rows, built when it is stored and tied to the source's version.

Lifecycle (seed 000): result → classify → inline or artifact → bounded summary → **index** →
inspect on demand → expire or archive. One ArtifactIndexEntry per task row holds the row's key,
title, status, assignee and due date with the byte offset and length of its stored line, so a
search reads index rows and then only the lines they point at: a fixed number of statements and
at most ``SEARCH_MAX_HITS`` lines read, whether the artifact holds 1 MB or 10 MB.

``Artifact.source_version`` is the task log's revision when the source was read (tasks/revision.py).
When the projects' tasks have changed since, or the index is missing, the index no longer speaks
for the source: ``index_state`` says so and the search answers from a bounded live query instead.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any, Literal

from django.db.models import Q
from django.utils import timezone

from agent.models import Artifact, ArtifactIndexEntry
from tasks.revision import tasks_changed_since

from .encode import NDJSON, Encoded
from .reader import byte_len

BATCH = 2000
IndexState = Literal["fresh", "stale", "missing", "none"]
_TITLE_KEYS = ("title", "task_title")
_DUE_KEYS = ("due_date", "due")


def _text(row: dict[str, Any], keys: tuple[str, ...], limit: int) -> str:
    for key in keys:
        value = row.get(key)
        if isinstance(value, str):
            return value[:limit]
    return ""


def _due(row: dict[str, Any]) -> date | None:
    text = _text(row, _DUE_KEYS, 10)
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def is_task_rows(encoded: Encoded) -> bool:
    """Whether the content is rows with a task's title or key: the rows an index is built for."""
    fields = encoded.schema.get("fields") or {}
    return encoded.content_type == NDJSON and any(k in fields for k in ("key", *_TITLE_KEYS))


def _entries(artifact: Artifact, encoded: Encoded) -> Iterator[ArtifactIndexEntry]:
    offset = 0
    items = encoded.items or []
    for number, line in enumerate(encoded.text.split("\n")[:len(items)], start=1):
        length = byte_len(line)
        row = items[number - 1]
        if isinstance(row, dict):
            yield ArtifactIndexEntry(
                artifact=artifact, line=number, offset=offset, length=length,
                key=_text(row, ("key",), 40), title=_text(row, _TITLE_KEYS, 300), status=_text(row, ("status",), 20),
                assignee=_text(row, ("assignee",), 150), due=_due(row))
        offset += length + 1


def index_build(artifact: Artifact, encoded: Encoded) -> int:
    """Index the task rows of a just-stored artifact read at a known version (nothing for other content);
    return the entries made."""
    if not is_task_rows(encoded) or artifact.source_version is None:
        return 0
    made = 0
    batch: list[ArtifactIndexEntry] = []
    for entry in _entries(artifact, encoded):
        batch.append(entry)
        if len(batch) == BATCH:
            made += len(ArtifactIndexEntry.objects.bulk_create(batch))
            batch = []
    made += len(ArtifactIndexEntry.objects.bulk_create(batch)) if batch else 0
    artifact.indexed_at = timezone.now()
    Artifact.objects.filter(pk=artifact.pk).update(indexed_at=artifact.indexed_at)
    return made


def index_state(artifact: Artifact) -> IndexState:
    """fresh: the index speaks for the source; stale: the source moved since; missing: task rows read at a
    known version have no index; none: not task rows read at a known version (searched by scanning)."""
    task_rows = any(k in (artifact.schema.get("fields") or {}) for k in ("key", *_TITLE_KEYS))
    if not task_rows or artifact.content_type != NDJSON or artifact.source_version is None:
        return "none"
    if artifact.indexed_at is None:
        return "missing"
    if tasks_changed_since(project_ids=artifact.project_ids, revision=artifact.source_version):
        return "stale"
    return "fresh"


def index_find(artifact: Artifact, pattern: str, *, limit: int) -> tuple[list[ArtifactIndexEntry], bool]:
    """The first `limit` entries whose key, title, status or assignee holds the text; and whether there were more."""
    text = pattern.strip()
    matched = ArtifactIndexEntry.objects.filter(artifact=artifact).filter(
        Q(title__icontains=text) | Q(key__iexact=text) | Q(status__iexact=text.replace(" ", "_"))
        | Q(assignee__iexact=text)).order_by("line")
    found = list(matched[:limit + 1])
    return found[:limit], len(found) > limit
