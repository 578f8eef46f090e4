"""The artifact index: built at externalization, tied to the task log's revision; a search through it
reads the same whatever the artifact's size; a moved source or a missing index answers live."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agent.artifacts import inspect
from agent.artifacts.classify import result_classify
from agent.artifacts.store import artifact_open
from agent.models import Artifact, ArtifactIndexEntry
from projects.models import Project
from tasks.revision import task_revision
from tasks.services import task_create, task_update

from .conftest import task_rows


def _indexed(owner: User, rows: list[dict[str, Any]], project: Project) -> Artifact:
    classified = result_classify(owner=owner, tool="query_tasks", arguments={}, result={"count": len(rows),
                                 "items": rows}, project_ids=[project.pk], source_version=task_revision())
    return Artifact.objects.get(ref=classified.ref)


def _reads(monkeypatch: pytest.MonkeyPatch, user: User, artifact: Artifact, pattern: str) -> tuple[int, int, Any]:
    """(SQL statements, bytes read from the stored file, answer) of one search."""
    read = [0]

    class Counting:
        def __init__(self, fh: Any) -> None:
            self.fh = fh

        def __enter__(self) -> Any:
            return self

        def __exit__(self, *exc: Any) -> None:
            self.fh.close()

        def seek(self, *args: Any) -> int:
            return int(self.fh.seek(*args))

        def read(self, size: int = -1) -> bytes:
            data: bytes = self.fh.read(size)
            read[0] += len(data)
            return data

    monkeypatch.setattr(inspect, "artifact_open", lambda artifact: Counting(artifact_open(artifact)))
    with CaptureQueriesContext(connection) as queries:
        answer = inspect.artifact_search(user=user, ref=artifact.ref, pattern=pattern, max_hits=5)
    return len(queries.captured_queries), read[0], answer


def test_the_index_holds_each_rows_facts_and_where_its_line_is(artifact_root: Any, alice: User,
                                                               website: Project) -> None:
    artifact = _indexed(alice, task_rows(40), website)
    raw = (artifact_root / artifact.content_path).read_bytes()
    entries = list(ArtifactIndexEntry.objects.filter(artifact=artifact))
    assert len(entries) == 40 and artifact.indexed_at is not None
    seventh = entries[6]
    assert (seventh.line, seventh.key, seventh.status, seventh.assignee, str(seventh.due)) == (
        7, "WEB-7", "done", "carol", "2026-12-08")
    assert raw[seventh.offset:seventh.offset + seventh.length].decode().startswith('{"assignee":"carol"')
    assert raw[seventh.offset + seventh.length:seventh.offset + seventh.length + 1] == b"\n"


def test_a_search_reads_the_same_over_1_and_10_megabytes(monkeypatch: pytest.MonkeyPatch, alice: User,
                                                         website: Project) -> None:
    small = _indexed(alice, task_rows(2_000, description_chars=300), website)
    large = _indexed(alice, task_rows(20_000, description_chars=300), website)
    assert small.size_bytes < 1.5 * 1024 * 1024 and large.size_bytes > 10 * 1024 * 1024
    for pattern in ("release", "no such words"):
        few = _reads(monkeypatch, alice, small, pattern)
        many = _reads(monkeypatch, alice, large, pattern)
        assert few[2]["index"] == many[2]["index"] == "fresh"
        assert few[0] == many[0], "the same statements for 1 MB and 10 MB"
        assert few[1] == many[1] <= 5 * 4 * inspect.LINE_MAX_CHARS, "the same bytes: at most the hit lines"
    hits = _reads(monkeypatch, alice, large, "release")[2]
    assert hits["hit_count"] == 5 and hits["partial"] is True
    assert all("release" in h["snippet"] for h in hits["hits"])


def test_a_changed_source_makes_the_search_stale_and_live(alice: User, website: Project) -> None:
    tasks = [task_create(actor=alice, project=website, title=f"Item {n}") for n in range(3)]
    rows = [{"id": t.pk, "key": t.key, "title": t.title, "status": t.status} for t in tasks] * 5
    artifact = _indexed(alice, rows, website)
    fresh = inspect.artifact_search(user=alice, ref=artifact.ref, pattern="Item 1")
    assert fresh["index"] == "fresh" and fresh["stale"] is False and fresh["hit_count"] == 5
    task_update(actor=alice, task=tasks[1], title="Renamed one")
    stale = inspect.artifact_search(user=alice, ref=artifact.ref, pattern="renamed")
    assert (stale["index"], stale["stale"], stale["live"]) == ("stale", True, True)
    assert [r["title"] for r in stale["rows"]] == ["Renamed one"]


def test_a_missing_index_answers_live(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Only one")
    artifact = _indexed(alice, [{"id": task.pk, "key": task.key, "title": task.title}] * 12, website)
    ArtifactIndexEntry.objects.filter(artifact=artifact).delete()
    Artifact.objects.filter(pk=artifact.pk).update(indexed_at=None)
    answer = inspect.artifact_search(user=alice, ref=artifact.ref, pattern="only")
    assert (answer["index"], answer["stale"], answer["live"], answer["hit_count"]) == ("missing", True, True, 1)
