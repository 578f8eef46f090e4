"""The audit's preview check reads only what a preview needs and reports content it cannot read."""
from __future__ import annotations

import tracemalloc
from dataclasses import asdict
from typing import IO, Any

import pytest
from django.contrib.auth.models import User

from agent.artifacts.lifecycle import artifact_archive
from agent.artifacts.store import artifact_open, artifact_storage
from agent.models import Artifact
from agent.run import audit
from projects.models import Project
from tests.agent.artifacts.conftest import classify_rows, task_rows

pytestmark = pytest.mark.django_db


def _summary_previews(alice: User, website: Project, count: int) -> tuple[Artifact, list[dict[str, Any]]]:
    classified = classify_rows(alice, task_rows(count), [website])
    previews = [{"ref": classified.ref, **asdict(p)} for p in classified.previews]
    assert previews
    return Artifact.objects.get(ref=classified.ref), previews


def test_a_character_offset_preview_reads_only_up_to_its_end(monkeypatch: pytest.MonkeyPatch,
                                                              big_artifact: Artifact) -> None:
    read = {"bytes": 0}

    class Counting:
        def __init__(self, handle: IO[bytes]) -> None:
            self.handle = handle

        def read(self, size: int = -1) -> bytes:
            chunk = self.handle.read(size)
            read["bytes"] += len(chunk)
            return chunk

        def seek(self, offset: int, whence: int = 0) -> int:
            return self.handle.seek(offset, whence)

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

    monkeypatch.setattr(audit, "artifact_open", lambda artifact: Counting(artifact_open(artifact)))
    with artifact_open(big_artifact) as handle:
        raw_head = handle.read(4096).decode("utf-8", errors="ignore")
    preview = {"ref": big_artifact.ref, "start": 10, "end": 40, "text": raw_head[10:40],
               "source_sha256": big_artifact.sha256}

    tracemalloc.start()
    try:
        assert audit.stored_preview_check(preview) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0 < read["bytes"] < 256 * 1024 < big_artifact.size_bytes, read
    assert peak < 1024 * 1024, peak
    # A preview past the end of the content is outside it, not an error.
    preview.update(start=big_artifact.size_bytes, end=big_artifact.size_bytes + 5, text="x" * 5)
    assert audit.stored_preview_check(preview) == "differs from the source text at those offsets"


def test_previews_of_archived_content_still_check(alice: User, website: Project) -> None:
    artifact, previews = _summary_previews(alice, website, 15)
    assert artifact_archive(artifact=artifact)
    assert all(audit.stored_preview_check(p) is None for p in previews)
    assert audit.stored_preview_check({**previews[0], "text": previews[0]["text"].upper()}) is not None


def test_a_preview_whose_content_is_gone_could_not_be_checked(alice: User, website: Project) -> None:
    artifact, previews = _summary_previews(alice, website, 15)
    artifact_storage().delete(artifact.content_path)
    unread = audit.stored_preview_check(previews[0])  # the file is gone, its path still recorded
    assert unread is not None and unread.startswith("could not be checked"), unread
    assert not artifact_archive(artifact=artifact)  # nothing left to archive: content_path is now ""
    assert Artifact.objects.get(pk=artifact.pk).content_path == ""

    for preview in [*previews, {**previews[0], "unit": "bytes"}]:
        problem = audit.stored_preview_check(preview)
        assert problem is not None and problem.startswith("could not be checked"), problem
