"""Every quick action of the fast-path table is routed without an LLM call; only a breakdown's planner asks one."""
from __future__ import annotations

from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from agent.models import Run, TraceEvent
from agent.routing.fast_path import FAST_PATH
from tasks.models import Task
from tasks.services import task_create
from tests.llm_stub import LLMStub

CAPABILITIES_DIR = Path(__file__).resolve().parents[2] / "agent" / "capabilities"
PAGES = {"workbench": "home", "task_row": "task_list", "quick_button": "project_detail"}
# Routed by the table but not built yet: each must say so as an error, never report success.
NOT_BUILT: dict[str, str] = {}
# Routed by the table like every button, then planned by the generation model: one call, never to route.
PLANNED = {"decompose_task": {"steps": [{"id": "s1", "tool": "create_subtask", "args": {
    "parent_id": {"from_step": "selected", "path": "$.id"}, "title": "Reproduce the bug", "due_date": None,
    "priority": None, "assignee": None}}]}}


@pytest.fixture
def board(alice: Any, website: Any) -> dict[str, Any]:
    """A selected overdue task of alice's and three other tasks on screen."""
    yesterday = timezone.localdate() - timedelta(days=3)
    selected = task_create(actor=alice, project=website, title="Fix login page", assignee=alice,
                           due_date=yesterday, status="in_progress")
    others = [task_create(actor=alice, project=website, title=f"Polish footer {n}", assignee=alice,
                          due_date=yesterday if n == 0 else None) for n in range(3)]
    return {"project": website, "selected": selected, "visible": [selected, *others]}


def page_context(origin: str, board: dict[str, Any]) -> dict[str, Any]:
    context: dict[str, Any] = {"page": PAGES[origin], "origin": origin}
    if origin != "workbench":
        context["selectedEntity"] = {"type": "task", "id": board["selected"].pk}
        context["visibleEntityIds"] = [t.pk for t in board["visible"]]
        context["routeParams"] = {"projectId": board["project"].pk}
    return context


def _effect(action: str, capability: str, body: dict[str, Any], board: dict[str, Any]) -> None:
    """What each quick action must have done."""
    selected = Task.objects.filter(pk=board["selected"].pk).first()
    if action == "mark_done":
        assert body["status"] == "done" and selected is not None and selected.status == "done"
    elif action == "delete_task":
        assert body["status"] == "needs_confirmation" and selected is not None
        assert body["confirmation"]["facts"]["title"] == "Fix login page"
    elif action == "mark_visible_done":
        assert body["status"] == "done"
        assert set(Task.objects.filter(pk__in=[t.pk for t in board["visible"]]).values_list("status", flat=True)) \
            == {"done"}
    elif action == "my_overdue":
        assert body["status"] == "done" and body["data"]["count"] == 2
    elif action == "weekly_report":
        assert body["status"] == "done", body
        # The last full week, before these tasks were made: nothing to count, and nothing changed.
        last_week = (timezone.localdate() - timedelta(days=7)).isocalendar()
        assert body["data"]["report"]["week"] == f"{last_week.year}-W{last_week.week:02d}"
        assert body["data"]["report"]["counts"]["created"] == 0
    elif action == "risk_analysis":
        # Two tasks three days overdue (15 points each); the selected one is also alice's, like the rest.
        assert body["status"] == "done", body
        assert body["data"]["risk"]["chart"]["scores"] == [15, 15]
    elif action in PLANNED:
        assert body["status"] == "needs_confirmation", body
        assert body["confirmation"]["facts"]["parent"]["title"] == "Fix login page"
        assert body["confirmation"]["steps"][0]["title"] == "Reproduce the bug"
    elif action in NOT_BUILT:
        assert body["status"] == "error", body
        assert body["data"] == {"available": False}
        assert body["reply"] == f"{NOT_BUILT[action]} is not available yet in this version; nothing was done."
        assert Run.objects.get(pk=body["run_id"]).error_code == "not_available"
        assert selected is not None and selected.status == "in_progress"
    else:
        # A button added with its capability's folder: answered without an error here, and its effect
        # asserted by the capability's own tests, which must send it.
        assert body["status"] in ("done", "needs_confirmation", "needs_clarification") and not body["error_code"], body
        tests = CAPABILITIES_DIR / capability / "tests"
        assert any(f'"{action}"' in path.read_text() for path in tests.glob("test_*.py")), (
            f"no test in {tests} sends the quick action {action!r}")


@pytest.mark.parametrize(("origin", "action"), sorted(FAST_PATH), ids=[f"{o}-{a}" for o, a in sorted(FAST_PATH)])
def test_quick_action_takes_the_fast_path_without_llm(openai_settings: LLMStub, alice: Any, board: dict[str, Any],
                                                      origin: str, action: str) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    if action in PLANNED:
        openai_settings.push_json(PLANNED[action])
    response = client.post("/api/assistant/requests/", {"action": action, "page_context": page_context(origin, board)},
                           format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["route"] == {"capability": FAST_PATH[(origin, action)][0], "via": "fast_path"}
    calls = TraceEvent.objects.filter(run_id=body["run_id"], kind=TraceEvent.Kind.LLM_CALL)
    if action in PLANNED:
        assert list(calls.values_list("name", flat=True)) == ["decompose_plan"] and openai_settings.calls == 1
    else:
        assert body["usage"] == {"llm_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
        assert openai_settings.calls == 0 and not calls.exists()
    _effect(action, FAST_PATH[(origin, action)][0], body, board)
    # Every button's run passes the four-point audit, stored on the run, as `audit_run --all` reports it.
    run = Run.objects.get(pk=body["run_id"])
    assert run.audit is not None and run.audit["passed"], run.audit
    out = StringIO()
    call_command("audit_run", "--all", stdout=out)
    assert "0 failed" in out.getvalue()


def test_the_llm_is_really_wired_to_the_stub(openai_settings: LLMStub, alice: Any, board: dict[str, Any]) -> None:
    """The same setup with free text does reach the (empty, failing) stub: the zero above is meaningful."""
    client = APIClient()
    client.force_authenticate(alice)
    body = client.post("/api/assistant/requests/", {"message": "mark this done",
                                                    "page_context": page_context("task_row", board)},
                       format="json").json()
    assert openai_settings.calls >= 1
    assert body["usage"]["llm_calls"] == 1
    assert body["status"] == "error"
    assert Task.objects.get(pk=board["selected"].pk).status == "in_progress"
