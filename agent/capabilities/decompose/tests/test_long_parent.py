"""A task with a long description or many subtasks: each is stored apart with its summary, the planner looks into
it on demand within decompose's inspection budget, and nothing breaks (a 12 000-character description used to
end the run with an internal error)."""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.models import Alert, Artifact, TraceEvent
from agent.registry import BY_NAME
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub, route_json

from .helpers import break_down, confirm, create, in_days, plan

FILLER = "The billing service keeps its old schema until the cut-over is signed off. "
TAIL = "Finally: archive the legacy invoices bucket."


def _long(lines: int = 160, *, middle: str = "Step 42: migrate the invoices table to the new schema.") -> str:
    body = [f"{n}. {FILLER}" for n in range(1, lines + 1)]
    body[lines // 2] = middle
    return "\n".join([*body, TAIL])


@pytest.fixture
def parent(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Migrate billing", description=_long())


def _planner_requests(stub: LLMStub) -> list[Any]:
    return [r for r in stub.requests if r.body.get("response_format", {}).get("json_schema", {}).get("name", "")
            .startswith("decompose_plan")]


def _said(request: Any) -> str:
    return "\n".join(str(m["content"]) for m in request.body["messages"])


def test_a_long_description_is_stored_apart_searched_then_planned(openai_settings: LLMStub, alice: User,
                                                                   parent: Task) -> None:
    assert len(parent.description) > 8000
    stub = openai_settings
    stub.push_tool_call("search", {"pattern": "invoices table", "max_hits": 3})
    stub.push_json(plan(create("s1", "Migrate the invoices table", due=in_days(7))))
    body = break_down(alice, parent)

    assert body["status"] == "needs_confirmation", body
    assert stub.calls == 2 and body["usage"]["llm_calls"] == 2
    first, second = _planner_requests(stub)
    # The first call has the summary (its previews cut from the stored text), not the text, and offers the tools.
    assert [t["function"]["name"] for t in first.body["tools"]] == ["outline", "search", "head", "tail", "context"]
    assert "SUMMARY of artifact" in _said(first) and TAIL not in _said(first) and "Step 42" not in _said(first)
    assert "Description: long, so it is stored apart" in _said(first)
    # The excerpt then stands in place of the summary: one form of the description per call.
    assert "Step 42: migrate the invoices table" in _said(second) and "SUMMARY of artifact" not in _said(second)
    stored = Artifact.objects.get(source_tool="parent_description")
    assert stored.content_type == "text/plain" and stored.line_count == 161
    looked = TraceEvent.objects.get(run_id=body["run_id"], kind="node", name="inspection")
    assert (looked.payload["tool"], looked.payload["round"], looked.payload["ref"]) == ("search", 1, stored.ref)
    assert body["reply"].endswith("Nothing is written until you approve.")

    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "done", done
    assert Task.objects.get(title="Migrate the invoices table").parent_id == parent.pk


def test_a_look_past_the_budget_is_dropped_and_the_card_says_so_in_chinese(openai_settings: LLMStub, alice: User,
                                                                          website: Project) -> None:
    line = "第{n}步：保留旧的计费表结构，直到切换获得批准。"
    parent = task_create(actor=alice, project=website, title="迁移计费系统",
                         description="\n".join(line.format(n=n) * 6 for n in range(120)))
    assert len(parent.description) > 8000
    stub = openai_settings
    budget = BY_NAME["decompose"].inspection_rounds
    stub.push_json(route_json("decompose", scope="selected"))
    for _ in range(budget + 1):
        stub.push_tool_call("head", {"lines": 5})
    stub.push_json(plan(create("s1", "整理旧表结构", due=in_days(5))))
    body = break_down(alice, parent, message="把这个任务拆分成子任务")

    assert body["status"] == "needs_confirmation", body
    assert stub.calls == 1 + (budget + 1) + 1
    assert body["reply"].endswith("（根据存储结果的摘要回答：助手查看的次数超出了允许的范围。）")
    assert Alert.objects.get(run_id=body["run_id"], kind="inspection_dropped").details["why"] == "budget"
    # The plan asked for after the drop offers no tools and keeps the last excerpt, not the summary as well.
    last = stub.requests[-1].body
    assert "tools" not in last and "SUMMARY of artifact" not in _said(stub.requests[-1])
    assert confirm(alice, body["run_id"]).json()["status"] == "done"


def test_many_subtasks_and_a_long_description_are_looked_into_by_name(openai_settings: LLMStub, alice: User,
                                                                      parent: Task) -> None:
    for n in range(1, 16):
        task_create(actor=alice, project=parent.project, parent=parent, title=f"Move customer batch {n}")
    stub = openai_settings
    stub.push_tool_call("search", {"source": "subtasks", "pattern": "batch 12", "max_hits": 3})
    stub.push_json(plan(create("s1", "Move customer batch 16")))
    body = break_down(alice, parent)

    assert body["status"] == "needs_confirmation", body
    first, second = _planner_requests(stub)
    search = next(t for t in first.body["tools"] if t["function"]["name"] == "search")
    assert search["function"]["parameters"]["properties"]["source"]["enum"] == ["description", "subtasks"]
    assert "Existing subtasks: 15 in all, stored apart" in _said(first)
    assert "Move customer batch 12" in _said(second)
    looked = TraceEvent.objects.get(run_id=body["run_id"], kind="node", name="inspection")
    assert looked.payload["source"] == "subtasks" and looked.payload["index"] == "fresh"
    calls = TraceEvent.objects.filter(run_id=body["run_id"], kind="llm_call").order_by("seq")
    for call in calls:
        refs = [p["ref"] for p in call.payload["parts"]]
        assert len(refs) == len(set(refs)), refs


def test_a_search_naming_no_source_is_dropped_when_there_are_two(openai_settings: LLMStub, alice: User,
                                                                 parent: Task) -> None:
    for n in range(1, 16):
        task_create(actor=alice, project=parent.project, parent=parent, title=f"Move customer batch {n}")
    stub = openai_settings
    stub.push_tool_call("search", json.dumps({"pattern": "batch 12", "max_hits": 3}))
    stub.push_json(plan(create("s1", "Move customer batch 16")))
    body = break_down(alice, parent)
    assert body["status"] == "needs_confirmation", body
    assert Alert.objects.get(run_id=body["run_id"], kind="inspection_dropped").details["why"] == "unusable"
    assert "(Answered from the summary of the stored result: a look into it could not be made.)" in \
        body["reply"]


def test_the_offline_planner_reads_the_long_description_and_skips_existing_subtasks(alice: User,
                                                                                    website: Project) -> None:
    steps = "Steps:\n- Write release notes\n- Email the testers\n- Open the feedback form\n"
    parent = task_create(actor=alice, project=website, title="Ship the beta", description=steps + _long())
    for n in range(1, 12):
        task_create(actor=alice, project=website, parent=parent, title=f"Older step {n}")
    task_create(actor=alice, project=website, parent=parent, title="Email the testers")
    body = break_down(alice, parent)

    assert body["status"] == "needs_confirmation", body
    titles = [s["title"] for s in body["confirmation"]["steps"]]
    assert titles == ["Write release notes", "Open the feedback form"]
    assert Artifact.objects.filter(source_tool__in=["parent_description", "parent_subtasks"]).count() == 2


def test_facts_too_large_for_a_prompt_end_the_breakdown_with_an_error_that_says_so(
        alice: User, parent: Task, settings: Any) -> None:
    settings.ARTIFACT_INLINE_MAX_CHARS = 200  # the task's facts and people no longer fit inline
    body = break_down(alice, parent)
    assert body["status"] == "error" and body["error_code"] == "invalid", body
    assert body["reply"] == ("Nothing more was changed: task_id: the task's facts and people are too many to plan "
                             "from here.")
    assert not Task.objects.filter(parent=parent).exists()
