"""The model asks for the ranking's next page while it writes the risk summary: the runtime binds the cursor the
shown page holds, reads the page as the user, and counts it against risk's inspection budget."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agent.models import Alert, Run, TraceEvent
from agent.registry import BY_NAME
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub, post_request, route_json

pytestmark = pytest.mark.django_db
PAGE = {"page": "project_detail", "origin": "sidebar"}


def _late(alice: User, project: Project, count: int) -> list[Task]:
    """Open tasks each a day later than the one before: every one scores above 0 (overdue)."""
    today = timezone.localdate()
    return [task_create(actor=alice, project=project, title=f"Late item {n:02}", assignee=alice,
                        due_date=today - timedelta(days=n)) for n in range(1, count + 1)]


def _page(project: Project) -> dict[str, Any]:
    return {**PAGE, "routeParams": {"projectId": project.pk}, "selectedEntity": {"type": "project", "id": project.pk}}


def _events(run_id: str, name: str) -> list[TraceEvent]:
    return list(TraceEvent.objects.filter(run_id=run_id, name=name).order_by("seq"))


def test_the_next_page_is_read_by_the_cursor_the_first_page_holds(
        alice: User, website: Project, openai_settings: LLMStub) -> None:
    stub = openai_settings
    _late(alice, website, 14)
    stub.push_json(route_json("risk"))
    stub.push_tool_call("next_page", {})
    stub.push_text("Past the ten shown, 4 more tasks are late.")
    run = post_request(alice, _page(website), message="what could slip in Website Redesign?")

    assert run["status"] == "done" and stub.calls == 3, run
    assert run["reply"] == "Past the ten shown, 4 more tasks are late." and run["data"]["polished"] is True
    # The first call offers the next page; the page is then in the prompt and, being the last, offers nothing more.
    assert [t["function"]["name"] for t in stub.requests[1].body["tools"]] == ["next_page"]
    asked = "\n".join(m["content"] for m in stub.requests[2].body["messages"])
    assert "Late item 01" in asked and "4 tasks, riskiest first (no task with a risk score follows)" in asked
    assert "Late item 14" not in asked  # the first page's tasks are the answer's, not the model's
    assert "tools" not in stub.requests[2].body
    reads = [e for e in _events(run["run_id"], "risk_tasks") if e.kind == "tool_call"]
    first, second = reads
    assert first.payload["arguments"].get("after") is None
    assert second.payload["arguments"]["after"] == first.payload["result"]["next"]
    assert second.payload["bound"]["after"]["binding"] == "step s1 at $.next"
    bound = [e for e in _events(run["run_id"], "after") if e.kind == "binding"]
    assert [e.payload["binding"] for e in bound] == ["step s1 at $.next"]
    [looked] = [e for e in _events(run["run_id"], "inspection") if e.kind == "node"]
    assert (looked.payload["tool"], looked.payload["round"], looked.payload["step"]) == ("next_page", 1, "s1:page2")
    assert Run.objects.get(pk=run["run_id"]).audit["passed"]


def test_pages_past_the_budget_are_dropped_and_the_answer_says_so_in_chinese(
        alice: User, website: Project, openai_settings: LLMStub) -> None:
    stub = openai_settings
    budget = BY_NAME["risk"].inspection_rounds
    _late(alice, website, 10 * (budget + 2))
    stub.push_json(route_json("risk"))
    for _ in range(budget + 1):
        stub.push_tool_call("next_page", {})
    run = post_request(alice, _page(website), message="Website Redesign 哪些任务有延期风险？")

    assert run["status"] == "done" and stub.calls == budget + 2, run
    assert run["reply"].endswith("（根据存储结果的摘要回答：助手查看的次数超出了允许的范围。）")
    pages = [e for e in _events(run["run_id"], "risk_tasks") if e.kind == "tool_call"]
    assert len(pages) == 1 + budget  # the first page, then one per round: none past the budget
    assert Alert.objects.get(run_id=run["run_id"], kind="inspection_dropped").details["why"] == "budget"


def test_a_next_page_asked_when_there_is_none_is_dropped(
        alice: User, website: Project, openai_settings: LLMStub) -> None:
    stub = openai_settings
    _late(alice, website, 3)
    stub.push_json(route_json("risk"))
    stub.push_tool_call("next_page", {})
    run = post_request(alice, _page(website), message="what could slip in Website Redesign?")

    assert "tools" not in stub.requests[1].body  # one page holds every scored task: nothing to offer
    assert run["reply"].endswith("(Answered from the summary of the stored result: a look into it could not be made.)")
    assert Alert.objects.get(run_id=run["run_id"], kind="inspection_dropped").details["why"] == "unusable"
    assert len([e for e in _events(run["run_id"], "risk_tasks") if e.kind == "tool_call"]) == 1
