"""Without a model: the offline planner proposes, the card waits, approval creates the subtasks."""
from __future__ import annotations

from typing import Any

import pytest

from agent.capabilities.decompose.offline import offline_titles
from agent.models import Run, TraceEvent
from tasks.models import Task
from tasks.services import task_create

from .helpers import URL, audited, break_down, client, confirm


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


def test_chinese_free_text_breaks_down_the_selected_task(alice: Any, parent: Task) -> None:
    body = break_down(alice, parent, message="拆解这个任务")
    assert body["route"] == {"capability": "decompose", "via": "llm_router"}
    assert body["status"] == "needs_confirmation", body
    assert len(body["confirmation"]["steps"]) == 3
    audited(body["run_id"])


def test_break_a_typed_task_down_from_the_home_page(alice: Any, parent: Task) -> None:
    response = client(alice).post(URL, {"message": f"break #{parent.pk} down",
                                        "page_context": {"page": "home", "origin": "sidebar"}}, format="json")
    body = response.json()
    assert body["status"] == "needs_confirmation", body
    assert body["confirmation"]["facts"]["parent"]["task_id"] == parent.pk
    assert confirm(alice, body["run_id"]).json()["status"] == "done"
    assert parent.subtasks.count() == 3
    audited(body["run_id"])


def test_the_row_action_breaks_down_the_row_task(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Write the FAQ and publish it")
    page = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}
    body = client(alice).post(URL, {"action": "decompose_task", "page_context": page}, format="json").json()
    assert [s["title"] for s in body["confirmation"]["steps"]] == ["Write the FAQ", "Publish it"]


@pytest.mark.parametrize(("title", "description", "expected"), [
    ("Launch", "1. Book the venue\n2. Send invites\n\nThanks", ["Book the venue", "Send invites"]),
    ("Launch", "* book the venue\n* send invites", ["Book the venue", "Send invites"]),
    ("Launch", "Write the copy, design the banner and ship it. Later: more.",
     ["Write the copy", "Design the banner", "Ship it"]),
    ("Translate the docs and review them", "", ["Translate the docs", "Review them"]),
    ("整理需求", "收集反馈、整理需求以及排期", ["收集反馈", "整理需求", "排期"]),
    # Clauses without "and": semicolons after a lead-in, and plain sentences, each one a step.
    ("Pricing page", "The page must: load in 2 s; show the prices; link to support.",
     ["Load in 2 s", "Show the prices", "Link to support"]),
    ("Pricing page", "Write the copy. Design the hero image.\nShip it to production!",
     ["Write the copy", "Design the hero image", "Ship it to production"]),
    ("Refactor billing", "Just one thing.", ["Plan: Refactor billing", "Build: Refactor billing",
                                             "Review: Refactor billing"]),
])
def test_offline_titles(title: str, description: str, expected: list[str]) -> None:
    assert offline_titles({"title": title, "description": description}) == expected


@pytest.mark.parametrize(("title", "description", "expected"), [
    # A fact or a goal among the sentences is not a step; "we need to" is not part of the action.
    ("Speed up the landing page", "Lighthouse score on mobile is below 70 today. We need to compress the hero "
     "images. Lazy-load the gallery. The page should feel instant.",
     ["Compress the hero images", "Lazy-load the gallery"]),
    ("Landing page", "- Faster first paint\n- Better scores", ["Plan: Landing page", "Build: Landing page",
                                                               "Review: Landing page"]),
    ("上线", "首页加载太慢。压缩图片。然后部署到生产环境。", ["压缩图片", "部署到生产环境"]),
])
def test_offline_steps_are_actions_never_restated_facts(title: str, description: str, expected: list[str]) -> None:
    assert offline_titles({"title": title, "description": description}) == expected


def test_a_second_breakdown_proposes_none_of_the_subtasks_made_by_the_first(alice: Any, parent: Task) -> None:
    first = break_down(alice, parent)
    assert confirm(alice, first["run_id"]).json()["status"] == "done"
    Task.objects.filter(parent=parent, title="Email the testers").update(title="email the testers!")
    task_create(actor=alice, project=parent.project, title="Thank the testers", parent=parent)
    Task.objects.filter(pk=parent.pk).update(description=parent.description + "\n- Thank the testers\n- Plan the demo")

    second = break_down(alice, parent)
    assert second["status"] == "needs_confirmation", second
    assert [s["title"] for s in second["confirmation"]["steps"]] == ["Plan the demo"]
    assert confirm(alice, second["run_id"]).json()["status"] == "done"

    third = break_down(alice, parent)
    assert third["status"] == "error" and "already one of its subtasks" in third["reply"], third
    assert parent.subtasks.count() == 5
