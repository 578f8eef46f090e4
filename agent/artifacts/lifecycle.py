"""Expire and archive artifacts (the periodic job's work); every step is safe to repeat.

Archiving copies the content to the "archive/" prefix of the same storage, checks the copy's
sha256, removes the live file, and only then records the new path, so a job killed at any
point leaves a state the next run finishes.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.files import File
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from agent.models import Artifact

from .store import ARCHIVE_PREFIX, artifact_storage, content_name

CHUNK_BYTES = 64 * 1024


@dataclass(frozen=True)
class ArchiveOutcome:
    archived: int
    missing: int


def _stored_sha256(name: str) -> str | None:
    storage = artifact_storage()
    if not storage.exists(name):
        return None
    digest = hashlib.sha256()
    with storage.open(name, "rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def artifacts_expire_due(*, now: datetime | None = None) -> int:
    """Mark the artifacts past their expiry time; return how many were newly marked."""
    now = now or timezone.now()
    return Artifact.objects.filter(expires_at__lte=now, expired_at__isnull=True).update(expired_at=now)


def artifact_archive(*, artifact: Artifact, now: datetime | None = None) -> bool:
    """Move one artifact's content under "archive/"; return False when its content was already gone."""
    now = now or timezone.now()
    storage = artifact_storage()
    target = content_name(artifact.ref, artifact.content_type, prefix=ARCHIVE_PREFIX)
    source = artifact.content_path
    found = True
    if _stored_sha256(target) != artifact.sha256:
        if storage.exists(target):
            storage.delete(target)  # a copy cut short by an earlier run
        if source and storage.exists(source):
            with storage.open(source, "rb") as fh:
                target = storage.save(target, File(fh))
        else:
            found = False
    if found and source != target and storage.exists(source):
        storage.delete(source)
    Artifact.objects.filter(pk=artifact.pk, archived_at__isnull=True).update(
        content_path=target if found else "", archived_at=now, expired_at=Coalesce("expired_at", Value(now)))
    return found


def artifacts_archive_due(*, now: datetime | None = None, limit: int = 500) -> ArchiveOutcome:
    """Archive up to `limit` artifacts older than settings.ARTIFACT_ARCHIVE_AFTER."""
    now = now or timezone.now()
    due = Artifact.objects.filter(created_at__lte=now - settings.ARTIFACT_ARCHIVE_AFTER,
                                  archived_at__isnull=True).order_by("created_at")[:limit]
    archived = missing = 0
    for artifact in due:
        if artifact_archive(artifact=artifact, now=now):
            archived += 1
        else:
            missing += 1
    return ArchiveOutcome(archived=archived, missing=missing)
