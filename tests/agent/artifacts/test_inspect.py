"""Inspection tools on a generated multi-megabyte artifact: correct, bounded, permission-checked."""
from __future__ import annotations

import json
import re
import tracemalloc
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agent.artifacts import reader
from agent.artifacts.classify import result_classify
from agent.artifacts.inspect import (
    ANSWER_MAX_CHARS,
    artifact_context,
    artifact_head,
    artifact_outline,
    artifact_search,
    artifact_tail,
)
from agent.models import Artifact
from pm_assistant.errors import InvalidInput, NotFound
from projects.models import Membership, Project
from tests.agent.artifacts.conftest import classify_rows, stored_bytes, task_rows

pytestmark = pytest.mark.django_db

TOOLS: dict[str, Callable[..., dict[str, Any]]] = {
    "outline": lambda user, ref: artifact_outline(user=user, ref=ref),
    "search": lambda user, ref: artifact_search(user=user, ref=ref, pattern="login"),
    "context": lambda user, ref: artifact_context(user=user, ref=ref, line=1),
    "head": lambda user, ref: artifact_head(user=user, ref=ref),
    "tail": lambda user, ref: artifact_tail(user=user, ref=ref),
}


def lines_of(raw: bytes) -> list[tuple[int, str]]:
    """(byte offset, text) of every line, computed the naive way."""
    out, at = [], 0
    for line in raw.split(b"\n")[:-1]:
        out.append((at, line.decode()))
        at += len(line) + 1
    return out


def bounded(answer: dict[str, Any]) -> dict[str, Any]:
    assert isinstance(answer["partial"], bool)
    assert len(json.dumps(answer, ensure_ascii=False)) <= ANSWER_MAX_CHARS
    return answer


def test_the_artifact_is_multi_megabyte(big_artifact: Artifact) -> None:
    assert big_artifact.size_bytes > 4 * 1024 * 1024
    assert big_artifact.line_count == 12_000


def test_head_returns_the_first_lines(artifact_root: Path, alice: User, big_artifact: Artifact) -> None:
    naive = lines_of(stored_bytes(artifact_root, big_artifact))

    answer = bounded(artifact_head(user=alice, ref=big_artifact.ref, lines=10))

    assert answer["partial"] is False and answer["total_lines"] == 12_000
    assert [(e["offset"], e["text"]) for e in answer["lines"]] == naive[:10]
    assert [e["line"] for e in answer["lines"]] == list(range(1, 11))


def test_head_stops_at_the_answer_size_and_says_partial(artifact_root: Path, alice: User,
                                                        big_artifact: Artifact) -> None:
    naive = lines_of(stored_bytes(artifact_root, big_artifact))

    answer = bounded(artifact_head(user=alice, ref=big_artifact.ref, lines=20))

    # Twenty lines of ~360 characters do not fit in one answer: fewer come back, flagged.
    assert answer["partial"] is True
    assert 10 < len(answer["lines"]) < 20
    assert [(e["offset"], e["text"]) for e in answer["lines"]] == naive[:len(answer["lines"])]


def test_head_asking_too_much_is_capped_and_partial(alice: User, big_artifact: Artifact) -> None:
    answer = bounded(artifact_head(user=alice, ref=big_artifact.ref, lines=10_000))

    assert answer["partial"] is True
    assert 0 < len(answer["lines"]) <= 50
    with pytest.raises(InvalidInput, match="lines: must be a whole number"):
        artifact_head(user=alice, ref=big_artifact.ref, lines=0)


@pytest.mark.parametrize("tool", ["head", "tail", "search", "context"])
def test_memory_stays_far_below_the_file_size(tool: str, alice: User, big_artifact: Artifact) -> None:
    calls = {
        "head": lambda: artifact_head(user=alice, ref=big_artifact.ref, lines=20),
        "tail": lambda: artifact_tail(user=alice, ref=big_artifact.ref, lines=20),
        "search": lambda: artifact_search(user=alice, ref=big_artifact.ref, pattern="no such text anywhere"),
        "context": lambda: artifact_context(user=alice, ref=big_artifact.ref, line=11_000),
    }
    calls[tool]()  # once before measuring: what a first call imports or caches is not the reader's buffer
    tracemalloc.start()
    try:
        calls[tool]()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Bounded by the readers' block sizes, not by the 4.5 MB file (whose text alone would be ~9 MB in memory).
    assert peak < 2 * 1024 * 1024, peak


def test_tail_returns_the_last_lines(artifact_root: Path, alice: User, big_artifact: Artifact) -> None:
    naive = lines_of(stored_bytes(artifact_root, big_artifact))

    answer = bounded(artifact_tail(user=alice, ref=big_artifact.ref, lines=5))

    assert answer["partial"] is False
    assert [(e["offset"], e["text"]) for e in answer["lines"]] == naive[-5:]
    assert [e["line"] for e in answer["lines"]] == list(range(11_996, 12_001))


def test_search_finds_hits_like_a_naive_scan(artifact_root: Path, alice: User, big_artifact: Artifact) -> None:
    raw = stored_bytes(artifact_root, big_artifact)
    naive = [(n, at + len(text[:m.start()].encode()))
             for n, (at, text) in enumerate(lines_of(raw), 1) for m in re.finditer("(?i)überprüfung", text)]

    answer = bounded(artifact_search(user=alice, ref=big_artifact.ref, pattern="ÜBERPRÜFUNG", max_hits=20))

    assert answer["partial"] is True and answer["hit_count"] == 20
    assert [(h["line"], h["offset"]) for h in answer["hits"]] == naive[:20]
    for hit in answer["hits"]:
        assert raw[hit["offset"]:hit["offset"] + len("Überprüfung".encode())].decode() == "Überprüfung"
        assert raw[hit["snippet_offset"]:].startswith(hit["snippet"].encode())
        assert "Überprüfung" in hit["snippet"] and len(hit["snippet"]) <= 2 * 60 + len("Überprüfung")
    # The scan stopped at the 21st hit instead of going on through the whole file.
    assert answer["scanned_to_line"] == naive[20][0]


def test_search_with_fewer_hits_than_the_limit_is_complete(alice: User, big_artifact: Artifact) -> None:
    answer = bounded(artifact_search(user=alice, ref=big_artifact.ref, pattern='"key":"WEB-11999"'))

    assert answer["partial"] is False
    assert [h["line"] for h in answer["hits"]] == [11_999]
    assert answer["scanned_to_line"] == 12_000


def test_search_is_literal_and_case_insensitive_unless_asked(alice: User, big_artifact: Artifact) -> None:
    ref = big_artifact.ref
    assert artifact_search(user=alice, ref=ref, pattern="Task 1.: ")["hit_count"] == 0  # "." is not a wildcard
    assert artifact_search(user=alice, ref=ref, pattern="ÜBERPRÜFUNG", case_sensitive=True)["hit_count"] == 0
    assert artifact_search(user=alice, ref=ref, pattern='"key":"WEB-7"')["hit_count"] == 1
    for bad in ("", "x" * 201, "two\nlines"):
        with pytest.raises(InvalidInput, match="pattern:"):
            artifact_search(user=alice, ref=ref, pattern=bad)


def test_search_finds_a_hit_across_pieces_of_a_very_long_line(alice: User) -> None:
    text = "a" * (reader.BLOCK_TEXT_BYTES - 3) + "NEEDLE" + "b" * 1000 + "NEEDLE\n" + "c" * 9000
    ref = result_classify(owner=alice, tool="report", arguments={}, result=text, project_ids=[]).ref

    answer = artifact_search(user=alice, ref=ref, pattern="needle")

    assert [(h["line"], h["offset"]) for h in answer["hits"]] == [
        (1, reader.BLOCK_TEXT_BYTES - 3), (1, reader.BLOCK_TEXT_BYTES - 3 + 6 + 1000)]


def test_context_by_line_and_by_offset(artifact_root: Path, alice: User, big_artifact: Artifact) -> None:
    raw = stored_bytes(artifact_root, big_artifact)
    naive = lines_of(raw)
    ref = big_artifact.ref

    around = bounded(artifact_context(user=alice, ref=ref, line=5000, radius=2))
    assert [(e["offset"], e["text"]) for e in around["lines"]] == naive[4997:5002]
    assert around["partial"] is False

    hit = artifact_search(user=alice, ref=ref, pattern='"key":"WEB-9001"')["hits"][0]
    window = bounded(artifact_context(user=alice, ref=ref, offset=hit["offset"], radius=100))
    assert window["line"] == 9001 and '"key":"WEB-9001"' in window["text"]
    assert raw[window["offset"]:window["end_offset"]].decode() == window["text"]

    assert artifact_context(user=alice, ref=ref, offset=hit["offset"], radius=10**6)["partial"] is True
    with pytest.raises(InvalidInput, match="exactly one of line or offset"):
        artifact_context(user=alice, ref=ref, line=1, offset=1)
    with pytest.raises(InvalidInput, match="line: must be between 1 and 12000"):
        artifact_context(user=alice, ref=ref, line=12_001)
    with pytest.raises(InvalidInput, match="offset:"):
        artifact_context(user=alice, ref=ref, offset=-1)


def test_outline_describes_the_structure(alice: User, big_artifact: Artifact) -> None:
    answer = bounded(artifact_outline(user=alice, ref=big_artifact.ref))

    assert answer["partial"] is False
    assert (answer["item_count"], answer["size_bytes"]) == (12_000, big_artifact.size_bytes)
    assert answer["fields"]["assignee"] == "null|str" and answer["kind"] == "items"
    assert answer["first_keys"] == sorted(task_rows(1)[0])
    assert answer["meta"] == {"count": 12_000, "truncated": False}
    assert answer["flags"] == {"is_summary": False, "truncated": False, "incomplete": False}
    assert answer["source_tool"] == "query_tasks" and answer["sha256"] == big_artifact.sha256


@pytest.mark.parametrize("tool", TOOLS)
def test_another_user_gets_the_same_not_found_as_an_unknown_ref(
        tool: str, alice: User, bob: User, big_artifact: Artifact) -> None:
    with pytest.raises(NotFound) as theirs:
        TOOLS[tool](bob, big_artifact.ref)
    with pytest.raises(NotFound) as unknown:
        TOOLS[tool](bob, "art_000000000000")

    assert theirs.value.message.replace(big_artifact.ref, "REF") == unknown.value.message.replace(
        "art_000000000000", "REF")
    with pytest.raises(NotFound):
        TOOLS[tool](alice, "../../etc/passwd")


def test_an_owner_who_left_a_scoped_project_loses_access(carol: User, alice: User, website: Project,
                                                         platform: Project) -> None:
    ref = classify_rows(carol, task_rows(20), [website, platform]).ref
    assert artifact_head(user=carol, ref=ref)["lines"]
    with pytest.raises(NotFound):
        artifact_head(user=alice, ref=ref)  # a member of website, but not the owner

    Membership.objects.filter(user=carol, project=platform).delete()

    with pytest.raises(NotFound):
        artifact_head(user=carol, ref=ref)


@pytest.mark.parametrize("tool", TOOLS)
def test_an_expired_artifact_answers_clearly(tool: str, alice: User, big_artifact: Artifact) -> None:
    Artifact.objects.filter(pk=big_artifact.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    answer = TOOLS[tool](alice, big_artifact.ref)

    assert answer["expired"] is True and answer["partial"] is False
    assert "expired" in answer["message"] and "Run query_tasks again" in answer["message"]


def test_a_vanished_file_answers_like_an_expired_one(artifact_root: Path, alice: User, big_artifact: Artifact) -> None:
    (artifact_root / big_artifact.content_path).unlink()

    for tool in ("search", "context", "head", "tail"):
        answer = TOOLS[tool](alice, big_artifact.ref)
        assert answer["expired"] is True and "no longer stored" in answer["message"]


def test_answers_stay_bounded_when_every_character_needs_escaping(alice: User) -> None:
    text = ("\u0001" * 3000 + "\n") * 20
    ref = result_classify(owner=alice, tool="report", arguments={}, result=text, project_ids=[]).ref

    for answer in (artifact_head(user=alice, ref=ref), artifact_tail(user=alice, ref=ref),
                   artifact_search(user=alice, ref=ref, pattern="\u0001\u0001", max_hits=50),
                   artifact_context(user=alice, ref=ref, offset=5000, radius=2000),
                   artifact_context(user=alice, ref=ref, line=3, radius=10)):
        assert answer["partial"] is True
        assert len(json.dumps(answer)) <= ANSWER_MAX_CHARS, answer["tool"]
