"""Artifact fixtures: a storage of the test's own and a generated multi-megabyte query result."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.artifacts.classify import Classified, result_classify
from agent.models import Artifact
from pm_assistant.vocabulary import PRIORITIES, STATUSES
from projects.models import Project

# Non-ASCII text so that byte offsets and character offsets differ.
WORDS = ("login", "Überprüfung", "数据 pipeline", "naïve café", "release", "needle-free", "résumé", "deploy")


def task_rows(count: int, *, description_chars: int = 150) -> list[dict[str, Any]]:
    rows = []
    for i in range(1, count + 1):
        word = WORDS[i % len(WORDS)]
        rows.append({
            "id": i, "key": f"WEB-{i}", "title": f"Task {i}: {word} \"quoted\" work",
            "status": STATUSES[i % 4], "priority": PRIORITIES[i % 3], "due_date": f"2026-12-{1 + i % 28:02d}",
            "assignee": None if i % 5 == 0 else ("alice", "carol", "dave")[i % 3], "progress": i % 101,
            "project": "Website Redesign", "description": (f"{word} " * description_chars)[:description_chars],
        })
    return rows


@pytest.fixture(scope="session")
def big_rows() -> list[dict[str, Any]]:
    """About 4.5 MB of task rows once stored as NDJSON."""
    return task_rows(12_000)


def classify_rows(owner: User, rows: list[dict[str, Any]], projects: list[Project], **extra: Any) -> Classified:
    result = {"count": len(rows), "items": rows, "truncated": False, **extra}
    return result_classify(owner=owner, tool="query_tasks", arguments={"status": ["todo"]}, result=result,
                           project_ids=[p.pk for p in projects])


@pytest.fixture
def big_artifact(alice: User, website: Project, big_rows: list[dict[str, Any]]) -> Artifact:
    classified = classify_rows(alice, big_rows, [website])
    assert classified.artifact is not None
    return Artifact.objects.get(ref=classified.ref)


def stored_bytes(root: Path, artifact: Artifact) -> bytes:
    return (root / artifact.content_path).read_bytes()
