"""Facts come from the server: the model's stated title/status are checked, alerted and overruled."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.html import escape

from agent.models import Alert
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.llm_stub import LLMStub

from .helpers import confirm, events, post_request, route_json, trace_of

TRUSTED = {"database", "server_clock"}


@pytest.fixture
def target(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Fix login page", status="in_progress")


@pytest.fixture
def decoy(alice: User, website: Project) -> Task:
    """The task the model wrongly believes it is talking about."""
    return task_create(actor=alice, project=website, title="Old homepage", status="done")


def assert_trusted_facts(facts: dict[str, Any], task: dict[str, Any]) -> None:
    assert {entry["source"] for entry in facts.values()} <= TRUSTED
    assert facts["now"]["source"] == "server_clock"
    assert facts["title"] == {"value": task["title"], "source": "database"}
    assert facts["status"] == {"value": task["status"], "source": "database"}


def alerts_page(client: Client) -> str:
    response = client.get("/admin/agent/alert/", {"kind": "fact_mismatch"})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("field", "by"), [("title", "page"), ("status", "typed number"), ("both", "page")])
def test_a_delete_with_a_wrong_stated_fact_is_alerted_and_deletes_the_database_task(
        openai_settings: LLMStub, alice: User, target: Task, decoy: Task, admin_user: User, client: Client,
        field: str, by: str) -> None:
    stated = {"expected_title": "Old homepage" if field in ("title", "both") else "Fix login page",
              "expected_status": "done" if field in ("status", "both") else "in_progress"}
    if by == "page":
        page = {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": target.pk}}
        slots: dict[str, Any] = {"operation": "delete", "scope": "selected", **stated}
        message = "delete the old homepage task"
    else:
        page = {"page": "home", "origin": "sidebar"}
        slots = {"operation": "delete", "task_id": target.pk, **stated}
        message = f"delete #{target.pk}, it is done"
    openai_settings.push_json(route_json("crud", **slots))
    asked = post_request(alice, page, message=message)

    assert asked["status"] == "needs_confirmation"
    card = asked["confirmation"]["facts"]
    assert (card["task_id"], card["title"], card["status"]) == (target.pk, "Fix login page", "in_progress")
    wrong = ["title", "status"] if field == "both" else [field]
    actual = {"title": "Fix login page", "status": "in_progress"}
    assert card["mismatches"] == [{"field": f, "stated": stated[f"expected_{f}"], "actual": actual[f]}
                                  for f in wrong]

    alerts = trace_of(alice, asked["run_id"])["alerts"]
    assert [a["kind"] for a in alerts] == ["fact_mismatch"] * len(wrong)
    assert [a["details"] for a in alerts] == card["mismatches"]
    assert Alert.objects.filter(run_id=asked["run_id"], kind="fact_mismatch").count() == len(wrong)
    client.force_login(admin_user)
    html = alerts_page(client)
    for alert in Alert.objects.filter(run_id=asked["run_id"]):
        assert escape(alert.message) in html and "The database decides." in alert.message

    done = confirm(alice, asked["run_id"])
    assert done["status"] == "done" and done["data"]["deleted"]["id"] == target.pk
    assert not Task.objects.filter(pk=target.pk).exists()
    assert Task.objects.filter(pk=decoy.pk, title="Old homepage").exists()
    (delete,) = events(asked["run_id"], "tool_call", "delete_task")
    assert delete.payload["arguments"] == {"task_id": target.pk}
    assert_trusted_facts(delete.payload["facts"], actual)
    # The alerts are not doubled when the node runs again on the decision.
    assert Alert.objects.filter(run_id=asked["run_id"]).count() == len(wrong)


def test_an_update_with_a_wrong_stated_status_stops_on_the_card_and_applies_to_the_real_task(
        openai_settings: LLMStub, alice: User, target: Task, decoy: Task) -> None:
    openai_settings.push_json(route_json("crud", operation="update", task_id=target.pk, status="done",
                                         expected_title="Fix login page", expected_status="blocked"))
    asked = post_request(alice, {"page": "home", "origin": "sidebar"}, message=f"mark #{target.pk} done")

    # A model-routed write whose stated facts differ waits on the card, which states the difference.
    assert asked["status"] == "needs_confirmation", asked
    assert "does not match the database" in asked["reply"] and "“blocked”" in asked["reply"]
    target.refresh_from_db()
    assert target.status == "in_progress"
    run = confirm(alice, asked["run_id"])
    assert run["status"] == "done"
    assert "the database was used" in run["reply"]
    assert run["data"]["mismatches"] == [{"field": "status", "stated": "blocked", "actual": "in_progress"}]
    target.refresh_from_db()
    assert target.status == "done"
    decoy.refresh_from_db()
    assert decoy.status == "done" and decoy.title == "Old homepage"
    (alert,) = trace_of(alice, run["run_id"])["alerts"]
    assert alert["kind"] == "fact_mismatch" and alert["details"]["actual"] == "in_progress"
    (update,) = events(run["run_id"], "tool_call", "update_task")
    assert update.payload["arguments"]["task_id"] == target.pk
    # The facts the update relied on are the task as it was read before the change.
    assert_trusted_facts(update.payload["facts"], {"title": "Fix login page", "status": "in_progress"})
    # Read when the card was asked for, and again on the decision: the update relied on the second read.
    asked_read, read = events(run["run_id"], "tool_call", "task_facts")
    assert asked_read.seq < read.seq < update.seq
    assert update.payload["facts"]["updated_at"] == {"value": read.payload["result"]["updated_at"],
                                                     "source": "database"}


def test_stated_facts_that_match_raise_no_alert(openai_settings: LLMStub, alice: User, target: Task) -> None:
    openai_settings.push_json(route_json("crud", operation="update", task_id=target.pk, status="blocked",
                                         expected_title="  fix LOGIN page ", expected_status="in_progress"))
    run = post_request(alice, {"page": "home", "origin": "sidebar"}, message=f"set #{target.pk} to blocked")
    assert run["status"] == "done" and run["data"]["mismatches"] == []
    assert not Alert.objects.filter(run_id=run["run_id"]).exists()
    target.refresh_from_db()
    assert target.status == "blocked"


def test_a_quick_delete_relies_only_on_server_facts(alice: User, target: Task) -> None:
    page = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": target.pk}}
    asked = post_request(alice, page, action="delete_task")
    assert asked["confirmation"]["facts"]["mismatches"] == []
    confirm(alice, asked["run_id"])
    for tool_call in events(asked["run_id"], "tool_call"):
        assert {entry["source"] for entry in tool_call.payload["facts"].values()} <= TRUSTED
    (delete,) = events(asked["run_id"], "tool_call", "delete_task")
    assert_trusted_facts(delete.payload["facts"], {"title": "Fix login page", "status": "in_progress"})
