"""Forced externalization: where the line between inline and artifact lies, and what each side holds."""
from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.artifacts.classify import Classified, result_classify, result_measure
from agent.artifacts.preview import preview_check
from agent.artifacts.refs import canonical_json, sha256_hex
from agent.artifacts.store import artifact_storage
from agent.artifacts.summary import SUMMARY_MAX_CHARS
from agent.capabilities.common.inspection import INSPECT_TOOLS
from agent.models import Artifact, Run
from agent.prompting.messages import PromptPart, PromptRefused, prompt_assemble
from pm_assistant.errors import NotFound
from projects.models import Project
from tasks.filters import TaskFilters
from tests.agent.artifacts.conftest import classify_rows, stored_bytes, task_rows

pytestmark = pytest.mark.django_db


def padded(total_chars: int, items: int = 0, *, pad_char: str = "x") -> dict[str, Any]:
    """A result whose canonical JSON is exactly total_chars characters long."""
    result: dict[str, Any] = {"items": [{"id": i} for i in range(items)], "pad": ""}
    result["pad"] = pad_char * (total_chars - len(canonical_json(result)))
    assert len(canonical_json(result)) == total_chars
    return result


def classify(owner: User, result: Any, projects: list[Project] | None = None) -> Classified:
    return result_classify(owner=owner, tool="query_tasks", arguments={}, result=result,
                           project_ids=[p.pk for p in projects or []])


def test_thresholds_are_the_documented_settings(settings: Any) -> None:
    assert settings.ARTIFACT_INLINE_MAX_CHARS == 8000
    assert settings.ARTIFACT_INLINE_MAX_ITEMS == 10


def test_exactly_8000_characters_stays_inline(alice: User) -> None:
    result = padded(8000)

    classified = classify(alice, result)

    assert classified.form == "full"
    assert classified.data == result
    assert classified.text == canonical_json(result)
    assert classified.artifact is None
    assert not Artifact.objects.exists()


def test_8001_characters_is_externalized(alice: User) -> None:
    classified = classify(alice, padded(8001))

    assert classified.form == "summary"
    assert classified.data is None
    assert Artifact.objects.get().ref == classified.ref


def test_characters_are_code_points_of_the_canonical_json_not_bytes(alice: User) -> None:
    result = padded(8000, pad_char="é")
    assert len(canonical_json(result).encode("utf-8")) > 8000

    assert classify(alice, result).form == "full"
    assert classify(alice, padded(8001, pad_char="é")).form == "summary"
    # Key order and spacing of the caller's dict do not matter: the canonical form is measured.
    assert result_measure({"b": 1, "a": [1, 2]}) == (len('{"a":[1,2],"b":1}'), 0)


def test_ten_items_stay_inline_and_eleven_are_externalized(alice: User) -> None:
    ten, eleven = padded(500, items=10), padded(500, items=11)

    assert classify(alice, ten).form == "full"
    outside = classify(alice, eleven)
    assert outside.form == "summary"
    assert Artifact.objects.get(ref=outside.ref).item_count == 11


def test_a_bare_list_counts_its_elements(alice: User) -> None:
    assert result_measure(list(range(10)))[1] == 10
    assert classify(alice, list(range(10))).form == "full"
    assert classify(alice, list(range(11))).form == "summary"


def test_thresholds_come_from_settings(settings: Any, alice: User) -> None:
    settings.ARTIFACT_INLINE_MAX_ITEMS = 3
    settings.ARTIFACT_INLINE_MAX_CHARS = 100

    assert classify(alice, padded(60, items=3)).form == "full"
    assert classify(alice, padded(60, items=4)).form == "summary"
    assert classify(alice, padded(101)).form == "summary"


def test_an_externalized_result_never_also_appears_inline(alice: User, website: Project) -> None:
    rows = task_rows(40)
    rows[7]["title"] = "Eighth row has a unique title"

    classified = classify_rows(alice, rows, [website])

    assert classified.form == "summary" and classified.data is None
    assert "Eighth row has a unique title" not in classified.text
    assert rows[0]["description"] not in classified.text
    assert len(classified.text) <= SUMMARY_MAX_CHARS
    assert classified.text.startswith(f"SUMMARY of artifact {classified.ref}")
    with pytest.raises(ValueError, match="no data"):
        Classified(form="summary", ref=classified.ref, text=classified.text, data=rows,
                   artifact=classified.artifact)
    # The summary enters a prompt tagged as a summary; the rows under the same ref cannot join it.
    part = classified.as_prompt_part(heading="Query result:")
    assert (part.ref, part.form) == (classified.ref, "summary")
    with pytest.raises(PromptRefused, match="summary, full"):
        prompt_assemble([part, PromptPart(ref=classified.ref, form="full", role="user", text=json.dumps(rows))])


def test_inline_ref_is_stable_for_the_same_content(alice: User) -> None:
    first, again = classify(alice, {"items": [1, 2]}), classify(alice, {"items": [1, 2]})
    other = classify(alice, {"items": [1, 3]})

    assert first.ref == again.ref == f"tool:query_tasks:{sha256_hex(canonical_json({'items': [1, 2]}))[:12]}"
    assert other.ref != first.ref


def test_stored_content_hash_schema_and_meta(artifact_root: Path, alice: User, website: Project) -> None:
    rows = task_rows(30)
    classified = result_classify(
        owner=alice, tool="query_tasks", result={"count": 30, "items": rows, "truncated": False},
        arguments={"filters": TaskFilters(status=("todo",), due_before=date(2026, 1, 2))}, project_ids=[website.pk])

    artifact = Artifact.objects.get(ref=classified.ref)
    body = stored_bytes(artifact_root, artifact)
    assert artifact.sha256 == sha256_hex(body)
    assert artifact.size_bytes == len(body)
    assert (artifact.item_count, artifact.line_count) == (30, 30)
    assert artifact.content_type == "application/x-ndjson"
    assert [json.loads(line) for line in body.decode().splitlines()] == rows
    assert artifact.meta == {"count": 30, "truncated": False}
    assert artifact.schema["fields"]["assignee"] == "null|str"
    assert artifact.schema["fields"]["id"] == "int"
    assert artifact.source_args == {"filters": {
        "project_id": None, "status": ["todo"], "assignee": None, "priority": [], "due_before": "2026-01-02",
        "due_after": None, "labels": [], "search": "", "ids": []}}
    assert artifact.project_ids == [website.pk]
    assert artifact.owner == alice
    assert not (artifact.truncated or artifact.incomplete or artifact.is_summary)
    assert classified.artifact is not None and classified.artifact.size_bytes == len(body)


def test_the_storage_is_the_tests_own_directory(artifact_root: Path, alice: User) -> None:
    classified = classify(alice, list(range(20)))

    assert Path(artifact_storage().location) == artifact_root  # type: ignore[attr-defined]
    assert (artifact_root / Artifact.objects.get(ref=classified.ref).content_path).exists()


def test_summary_counts_distributions_and_previews(artifact_root: Path, alice: User, website: Project) -> None:
    rows = task_rows(200)

    classified = classify_rows(alice, rows, [website])

    artifact = Artifact.objects.get(ref=classified.ref)
    text = classified.text
    assert "200 items" in text and "flags: none" in text and "count=200" in text
    statuses = Counter(r["status"] for r in rows)
    assert "status: " + ", ".join(f'"{s}" {n}' for s, n in statuses.most_common()) in text
    assert '"Website Redesign" 200' in text
    assert "none 40" in text  # every fifth task has no assignee
    assert ("Fields: id (int), key (str), title (str), status (str), priority (str), due_date (str), "
            "assignee (null|str)") in text
    raw = stored_bytes(artifact_root, artifact).decode("utf-8")
    assert len(classified.previews) == 3
    for preview in classified.previews:
        assert preview.source_sha256 == artifact.sha256
        assert preview_check(raw, preview)
        assert f'chars {preview.start}-{preview.end}: "{preview.text}"' in text
    # Titles are cut from the stored text, so the quotes inside stay JSON-escaped as stored.
    assert classified.previews[0].text == 'Task 1: Überprüfung \\"quoted\\" work'


def test_summary_names_the_tools_the_model_is_offered_and_needs_no_ref(alice: User) -> None:
    classified = classify(alice, list(range(20)))

    last = classified.text.splitlines()[-1]
    offered = [tool["function"]["name"] for tool in INSPECT_TOOLS]
    assert offered and all(name in last for name in offered), last
    assert "artifact_" not in classified.text
    assert classified.ref not in last and "finds the stored result" in last
    assert classified.text.count(classified.ref) == 1  # once, in the heading that names the summary


def test_flags_come_from_the_result(alice: User) -> None:
    cut = classify(alice, {"count": 500, "items": list(range(20))})
    partial = classify(alice, {"items": list(range(20)), "incomplete": True, "is_summary": True})

    assert cut.artifact is not None and cut.artifact.truncated and "flags: truncated" in cut.text
    assert partial.artifact is not None and partial.artifact.incomplete and partial.artifact.is_summary
    assert "flags: summary, incomplete" in partial.text


def test_summary_stays_bounded_for_a_wide_odd_result(alice: User) -> None:
    row = {f"field_{i}_" + "x" * 60: "v" * 500 for i in range(300)}
    row["title"] = "t" * 5000
    result = {"items": [row] * 12, "note": "n" * 3000, "status_line": "\u0007bell"}

    classified = classify(alice, result)

    assert classified.form == "summary"
    assert len(classified.text) <= SUMMARY_MAX_CHARS
    assert "\u0007" not in classified.text
    assert all(len(p.text) <= 80 for p in classified.previews)


def test_text_and_document_results_are_stored_as_they_are(artifact_root: Path, alice: User) -> None:
    text = "line one\n" * 2000
    document = {"report": {"week": 12, "lines": ["x" * 100] * 100}}

    as_text = Artifact.objects.get(ref=classify(alice, text).ref)
    as_doc = Artifact.objects.get(ref=classify(alice, document).ref)

    assert as_text.content_type == "text/plain" and stored_bytes(artifact_root, as_text).decode() == text
    assert as_text.line_count == 2000
    assert as_doc.content_type == "application/json"
    assert json.loads(stored_bytes(artifact_root, as_doc)) == document


def test_a_project_the_owner_is_not_in_is_refused_and_nothing_is_written(
        artifact_root: Path, alice: User, platform: Project) -> None:
    with pytest.raises(NotFound):
        classify(alice, list(range(20)), [platform])

    assert not Artifact.objects.exists()
    assert not any(p.is_file() for p in artifact_root.rglob("*"))


def test_a_run_reuses_its_artifact_only_for_the_same_rows_figures_and_projects(
        alice: User, website: Project, mobile: Project) -> None:
    run_id = Run.objects.create(user=alice).pk
    rows = task_rows(30)

    def stored(result: dict[str, Any], projects: list[Project]) -> str:
        return result_classify(owner=alice, tool="query_tasks", arguments={}, result=result,
                               project_ids=[p.pk for p in projects], run_id=run_id).ref

    first = stored({"count": 30, "items": rows}, [website])
    assert stored({"count": 30, "items": rows}, [website]) == first  # a node run again after a card
    # The same rows beside another figure, or from another scope: what this read returned, stored afresh.
    other_count = stored({"count": 31, "items": rows}, [website])
    other_scope = stored({"count": 30, "items": rows}, [website, mobile])
    assert len({first, other_count, other_scope}) == 3
    assert Artifact.objects.get(ref=other_count).meta == {"count": 31}
    assert Artifact.objects.get(ref=other_scope).project_ids == sorted([website.pk, mobile.pk])
