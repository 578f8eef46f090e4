"""A query over 500 tasks: the rows go to an artifact; trace and prompt hold its ref and a bounded summary."""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.artifacts.preview import Preview, preview_check
from agent.artifacts.store import artifact_open
from agent.context.tokens import token_count
from agent.models import Artifact, TraceEvent
from pm_assistant.vocabulary import STATUSES
from projects.models import Project
from tasks.models import Task
from tests.llm_stub import LLMStub

from .helpers import events, post_request, route_json, trace_of

SEEDED = 500
TITLE = re.compile(r"Seeded task \d{4}")


def seed(project: Project, owner: User, numbers: range, **extra: Any) -> None:
    Task.objects.bulk_create([
        Task(project=project, title=f"Seeded task {n:04d}", status=STATUSES[n % 4], priority=f"P{n % 4}",
             assignee=owner if n % 3 else None, created_by=owner, **extra)
        for n in numbers
    ])


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner)


@pytest.fixture
def run(openai_settings: LLMStub, alice: User, bob: User, website: Project, mobile: Project,
        platform: Project) -> dict[str, Any]:
    seed(website, alice, range(0, 300))
    seed(mobile, alice, range(300, SEEDED))
    seed(platform, bob, range(SEEDED, SEEDED + 40))  # alice cannot see these
    openai_settings.push_json(route_json("query"))
    openai_settings.push_text("You have 500 tasks across two projects; a quarter of them are blocked.")
    body = post_request(alice, {"page": "home", "origin": "sidebar"}, message="show me all my tasks")
    assert body["status"] == "done", body
    return body


def test_the_run_keeps_the_artifact_ref_and_only_a_page_of_rows(run: dict[str, Any]) -> None:
    data = run["data"]
    assert re.fullmatch(r"art_[0-9a-f]{12}", data["artifact"]["ref"])
    assert data["count"] == SEEDED and data["artifact"]["item_count"] == SEEDED
    assert len(data["items"]) == 10
    assert run["reply"].startswith("You have 500 tasks")


def test_the_trace_holds_the_ref_and_summary_never_the_rows(run: dict[str, Any], alice: User) -> None:
    ref = run["data"]["artifact"]["ref"]
    (query,) = events(run["run_id"], "tool_call", "query_tasks")
    result = query.payload["result"]
    assert set(result) == {"artifact", "form", "summary"}
    assert result["form"] == "summary" and result["artifact"]["ref"] == ref
    assert result["summary"].startswith(f"SUMMARY of artifact {ref}")
    assert "500 items" in result["summary"]
    payloads = [e.payload for e in TraceEvent.objects.filter(run_id=run["run_id"])]
    assert "items" not in set(keys(payloads))
    # Of 500 titles the whole trace (API included) holds only the few previews.
    (artifact_event,) = events(run["run_id"], "artifact")
    previewed = {p["text"] for p in artifact_event.payload["previews"]}
    assert 1 <= len(previewed) <= 3
    assert set(TITLE.findall(json.dumps(trace_of(alice, run["run_id"])))) == previewed


def test_the_explanation_prompt_carries_the_summary_as_its_only_form(run: dict[str, Any],
                                                                     openai_settings: LLMStub) -> None:
    ref = run["data"]["artifact"]["ref"]
    (explain,) = events(run["run_id"], "llm_call", "explain")
    parts = explain.payload["parts"]
    assert [p for p in parts if p["ref"] == ref] == [{"ref": ref, "form": "summary", "role": "user"}]
    assert len({p["ref"] for p in parts}) == len(parts)
    sent = openai_settings.requests[1].body["messages"]
    assert explain.payload["messages"] == sent
    text = "\n".join(m["content"] for m in sent)
    (query,) = events(run["run_id"], "tool_call", "query_tasks")
    assert query.payload["result"]["summary"] in text
    (artifact_event,) = events(run["run_id"], "artifact")
    assert set(TITLE.findall(text)) == {p["text"] for p in artifact_event.payload["previews"]}
    assert token_count(text) < 1000


def test_the_stored_content_is_the_whole_result_with_its_hash(run: dict[str, Any], alice: User,
                                                              website: Project, mobile: Project) -> None:
    artifact = Artifact.objects.get(ref=run["data"]["artifact"]["ref"])
    with artifact_open(artifact) as handle:
        raw = handle.read()
    assert hashlib.sha256(raw).hexdigest() == artifact.sha256
    assert len(raw) == artifact.size_bytes
    lines = raw.decode("utf-8").splitlines()
    assert len(lines) == SEEDED == artifact.line_count == artifact.item_count
    rows = [json.loads(line) for line in lines]
    assert sorted(r["title"] for r in rows) == [f"Seeded task {n:04d}" for n in range(SEEDED)]
    assert set(Task.objects.filter(title__in=[r["title"] for r in rows]).values_list("project_id", flat=True)) \
        == {website.pk, mobile.pk}
    assert artifact.project_ids == sorted([website.pk, mobile.pk])
    assert (artifact.owner_id, artifact.source_tool, artifact.truncated) == (alice.pk, "query_tasks", False)
    assert artifact.meta["count"] == SEEDED
    (artifact_event,) = events(run["run_id"], "artifact")
    for preview in artifact_event.payload["previews"]:
        candidate = Preview(text=preview["text"], start=preview["start"], end=preview["end"],
                            source_sha256=preview["source_sha256"])
        assert preview_check(raw.decode("utf-8"), candidate, raw_sha256=artifact.sha256)
