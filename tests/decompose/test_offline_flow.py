"""Without a model: the offline planner proposes, the card waits, approval creates the subtasks."""
from __future__ import annotations

from typing import Any

import pytest

from agent.models import Run, TraceEvent
from tasks.models import Task
from tasks.services import task_create

from .helpers import audited, break_down, confirm


@pytest.fixture
def parent(alice: Any, website: Any) -> Task:
    return task_create(actor=alice, project=website, title="Launch the beta",
                       description="Steps:\n- Write release notes\n- Email the testers\n- Open the feedback form")


def test_the_offline_planner_splits_the_bullets_and_waits_for_approval(alice: Any, parent: Task) -> None:
    body = break_down(alice, parent)
    assert body["status"] == "needs_confirmation", body
    assert body["route"] == {"capability": "decompose", "via": "fast_path"}
    steps = body["confirmation"]["steps"]
    assert [s["title"] for s in steps] == ["Write release notes", "Email the testers", "Open the feedback form"]
    assert body["confirmation"]["facts"]["planner"] == "offline"
    assert body["confirmation"]["facts"]["parent"]["title"] == "Launch the beta"
    assert not parent.subtasks.exists()
    done = confirm(alice, body["run_id"]).json()
    assert done["status"] == "done", done
    assert sorted(parent.subtasks.values_list("title", flat=True)) == sorted(s["title"] for s in steps)
    assert "offline planner" in done["reply"]
    assert Run.objects.get(pk=body["run_id"]).llm_calls == 0
    assert TraceEvent.objects.filter(run_id=body["run_id"], name="decompose.step").count() == 3
    audited(body["run_id"])
