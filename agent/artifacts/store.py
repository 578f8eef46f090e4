"""Store artifacts through Django's storage API and hand them only to their owner.

Reading needs the owner AND current membership of every project the artifact was scoped to;
anyone else gets the same NotFound as for a ref that never existed.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import IO, Any, cast
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.db import DatabaseError
from django.utils import timezone

from agent.models import Artifact
from pm_assistant.errors import NotFound
from projects.models import Membership

from .encode import NDJSON, TEXT, Encoded
from .refs import artifact_ref_new, is_artifact_ref, jsonable, sha256_hex

AnyUser = AbstractBaseUser | AnonymousUser
LIVE_PREFIX = "live/"
ARCHIVE_PREFIX = "archive/"
_EXTENSIONS = {NDJSON: "ndjson", TEXT: "txt"}


def artifact_storage() -> Storage:
    """Return the "artifacts" storage (filesystem by default, S3 when configured)."""
    return storages["artifacts"]


def content_name(ref: str, content_type: str, *, prefix: str = LIVE_PREFIX) -> str:
    return f"{prefix}{ref}.{_EXTENSIONS.get(content_type, 'json')}"


def _member_of_all(user: AnyUser, project_ids: Iterable[int]) -> bool:
    wanted = set(project_ids)
    if not wanted:
        return True
    rows = Membership.objects.filter(user_id=cast(int, user.pk), project_id__in=wanted)
    found = set(rows.values_list("project_id", flat=True))
    return found == wanted


def _not_found(ref: object) -> NotFound:
    return NotFound(f"Artifact {str(ref)[:40]} was not found.", field="ref")


def artifact_create(*, owner: User, tool: str, arguments: dict[str, Any], encoded: Encoded,
                    project_ids: Iterable[int], run_id: UUID | None = None, source_version: int | None = None,
                    is_summary: bool = False, truncated: bool = False, incomplete: bool = False) -> Artifact:
    """Write the encoded content to storage and record where it came from, its hash and scope."""
    scope = sorted({int(p) for p in project_ids})
    if not _member_of_all(owner, scope):
        raise NotFound("A project of this result was not found.", field="project_ids")
    body = encoded.text.encode("utf-8")
    ref = artifact_ref_new()
    while Artifact.objects.filter(ref=ref).exists():
        ref = artifact_ref_new()
    storage = artifact_storage()
    name = storage.save(content_name(ref, encoded.content_type), ContentFile(body))
    try:
        return Artifact.objects.create(
            ref=ref, owner=owner, project_ids=scope, run_id=run_id, source_tool=tool,
            source_args=jsonable(arguments), sha256=sha256_hex(body), schema=encoded.schema,
            meta=jsonable(encoded.meta), size_bytes=len(body), item_count=encoded.item_count,
            line_count=encoded.line_count, content_path=name, content_type=encoded.content_type,
            is_summary=is_summary, truncated=truncated, incomplete=incomplete, source_version=source_version,
            expires_at=timezone.now() + settings.ARTIFACT_TTL,
        )
    except DatabaseError:
        # No row points at the file: do not leave it behind.
        storage.delete(name)
        raise


def artifact_get_for_user(*, user: AnyUser, ref: str) -> Artifact:
    """Return the artifact when the user owns it and is still a member of all its projects, else NotFound."""
    if not user.is_authenticated or not is_artifact_ref(ref):
        raise _not_found(ref)
    artifact = Artifact.objects.filter(ref=ref, owner_id=user.pk).first()
    if artifact is None or not _member_of_all(user, artifact.project_ids):
        raise _not_found(ref)
    return artifact


def artifact_is_expired(artifact: Artifact, *, now: datetime | None = None) -> bool:
    """An artifact past its expiry (or archived) is no longer readable by the assistant."""
    return artifact.archived_at is not None or artifact.expires_at <= (now or timezone.now())


def artifact_open(artifact: Artifact) -> IO[bytes]:
    """Open the stored content for binary reading (the caller closes it)."""
    return cast(IO[bytes], artifact_storage().open(artifact.content_path, "rb"))


def artifact_delete(*, artifact: Artifact) -> None:
    """Delete the artifact's row and its stored content."""
    name = artifact.content_path
    artifact.delete()
    if name:
        artifact_storage().delete(name)
