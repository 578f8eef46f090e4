"""The workload answer's "Reassign" move: the server proposes one task of the overloaded person to the
least-loaded member; pressing it stops on crud's card; Approve reassigns (and undoes), Reject writes nothing;
stale or tampered ids are refused naming the field, and nothing is written."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from agent.capabilities.workload.reassign import reassign_proposal
from agent.models import Confirmation, Run
from projects.models import Membership, Project
from projects.services import membership_set
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.helpers import api_client, confirm, post_request

pytestmark = pytest.mark.django_db


def _page(project: Project, origin: str = "quick_button") -> dict[str, Any]:
    return {"page": "project_detail", "origin": origin, "routeParams": {"projectId": project.pk},
            "selectedEntity": {"type": "project", "id": project.pk}}


@pytest.fixture
def urgent(alice: User, carol: User, website: Project) -> Task:
    """Website: alice has 6 open tasks (overloaded beside carol's 2); the one overdue longest is the most urgent."""
    today = timezone.localdate()
    task_create(actor=alice, project=website, title="no date P0", assignee=alice, priority="P0")
    task_create(actor=alice, project=website, title="late 1 day P1", assignee=alice, priority="P1",
                due_date=today - timedelta(days=1))
    first = task_create(actor=alice, project=website, title="late 3 days P3", assignee=alice, priority="P3",
                        due_date=today - timedelta(days=3))
    task_create(actor=alice, project=website, title="due soon P0", assignee=alice, priority="P0",
                due_date=today + timedelta(days=1))
    for n in range(2):
        task_create(actor=alice, project=website, title=f"a{n}", assignee=alice)
        task_create(actor=alice, project=website, title=f"c{n}", assignee=carol)
    return first


def _press(user: User, move: dict[str, Any], project: Project, **changed: Any) -> Any:
    client = Client()
    client.force_login(user)
    body = {"task": move["task"], "assignee": move["assignee"], "lang": move["lang"],
            "page_context": json.dumps(_page(project, "sidebar")), **changed}
    return client.post(reverse("assistant-sidebar-reassign"), body)


def _move(user: User, project: Project) -> dict[str, Any]:
    run = post_request(user, _page(project), action="workload")
    assert run["status"] == "done" and run["usage"]["llm_calls"] == 0, run
    move = run["data"]["workload"]["reassign"]
    assert move is not None, run["data"]["workload"]
    return move


def _assignee(task: Task) -> str | None:
    task.refresh_from_db()
    return task.assignee.username if task.assignee else None


def test_the_answer_proposes_the_most_urgent_task_to_the_least_loaded_member(urgent: Task, alice: User,
                                                                             carol: User, website: Project) -> None:
    move = _move(alice, website)
    assert (move["task"], move["assignee"]) == (urgent.pk, carol.pk)
    assert move["label"] == f"Reassign {urgent.key} to carol"
    assert f"{urgent.key} “late 3 days P3”, alice's most urgent open task" in move["hint"]


def test_a_tie_goes_to_the_first_username(urgent: Task, alice: User, bob: User, carol: User,
                                          website: Project) -> None:
    membership_set(actor=alice, project=website, user=bob, role="member")
    for n in range(2):
        task_create(actor=alice, project=website, title=f"b{n}", assignee=bob)
    found = reassign_proposal(user=alice, person_id=alice.pk, project_ids=[website.pk],
                              today=timezone.localdate().isoformat())["items"][0]
    assert (found["task_id"], found["to"], found["to_open"]) == (urgent.pk, "bob", 2)


def test_no_move_when_nobody_is_overloaded(alice: User, carol: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="one", assignee=alice)
    task_create(actor=alice, project=website, title="two", assignee=carol)
    run = post_request(alice, _page(website), action="workload")
    assert run["data"]["workload"]["reassign"] is None


def test_pressing_stops_on_the_card_approve_reassigns_and_undo_restores(urgent: Task, alice: User,
                                                                        website: Project) -> None:
    response = _press(alice, _move(alice, website), website)
    assert response.status_code == 200, response.content
    run = Run.objects.get(message=f"Reassign {urgent.key} to carol")
    card = Confirmation.objects.get(run=run)
    assert run.status == Run.Status.NEEDS_CONFIRMATION and run.capability == "crud" and run.llm_calls == 0
    assert card.action == "confirm_write" and card.facts["change"] == \
        f"Change {urgent.key} “late 3 days P3”: assignee alice → carol"
    assert run.reply.startswith("Please confirm: ") and "The assistant proposed this change" in run.reply
    assert "alice → carol" in response.content.decode() and _assignee(urgent) == "alice"

    done = confirm(alice, str(run.pk), "approve")
    assert done["status"] == "done" and _assignee(urgent) == "carol", done
    undone = api_client(alice).post(f"/api/assistant/runs/{run.pk}/undo/", {}, format="json")
    assert undone.status_code == 200, undone.content
    assert _assignee(urgent) == "alice"


def test_reject_writes_nothing(urgent: Task, alice: User, website: Project) -> None:
    _press(alice, _move(alice, website), website)
    run = Run.objects.get(capability="crud")
    rejected = confirm(alice, str(run.pk), "reject")
    assert rejected["data"].get("rejected") and _assignee(urgent) == "alice"
    assert not TaskActivity.objects.filter(task=urgent).exclude(kind="created").exists()


def test_in_chinese_the_move_and_the_card_are_chinese(urgent: Task, alice: User, website: Project) -> None:
    run = post_request(alice, {**_page(website), "origin": "sidebar"}, message="谁的任务最多？")
    move = run["data"]["workload"]["reassign"]
    assert move["label"] == f"把 {urgent.key} 改派给 carol" and move["lang"] == "zh"
    _press(alice, move, website)
    card = Confirmation.objects.get(run__capability="crud")
    assert card.facts["change"] == f"修改 {urgent.key} “late 3 days P3”：负责人 alice → carol"


@pytest.mark.parametrize(("elsewhere", "said"), [
    (True, "Nothing was changed: assignee: “carol” is not a member of Website Redesign"),
    (False, "I couldn't find anyone called “carol” among the members of your projects, so nothing was changed."),
])
def test_a_member_removed_before_approval_is_refused_on_approval(urgent: Task, alice: User, carol: User,
                                                                 website: Project, mobile: Project,
                                                                 elsewhere: bool, said: str) -> None:
    _press(alice, _move(alice, website), website)
    if elsewhere:  # still in another of alice's projects: found, but not a member of the task's
        membership_set(actor=alice, project=mobile, user=carol, role="member")
    Membership.objects.filter(project=website, user=carol).delete()
    run = Run.objects.get(capability="crud")
    refused = confirm(alice, str(run.pk), "approve")
    assert refused["status"] != "done" and refused["reply"].startswith(said), refused
    assert _assignee(urgent) == "alice"


@pytest.mark.parametrize(("who", "field", "status"), [
    ("dave", "assignee", 400),    # a viewer of the project: not someone tasks go to
    ("bob", "assignee", 400),     # not a member of the task's project at all
    ("alice", "assignee", 409),   # already has it
    ("x", "assignee", 400),       # not an id
])
def test_a_tampered_assignee_is_refused_naming_the_field(urgent: Task, alice: User, bob: User, dave: User,
                                                         website: Project, who: str, field: str, status: int) -> None:
    people = {"dave": dave.pk, "bob": bob.pk, "alice": alice.pk, "x": "x"}
    response = _press(alice, _move(alice, website), website, assignee=people[who])
    assert response.status_code == status and f"Nothing was changed: {field}:" in response.content.decode(), \
        response.content
    assert not Run.objects.filter(capability="crud").exists() and _assignee(urgent) == "alice"


def test_another_users_task_or_a_done_one_is_refused(urgent: Task, alice: User, bob: User, platform: Project,
                                                     website: Project) -> None:
    theirs = task_create(actor=bob, project=platform, title="bob's", assignee=bob)
    move = _move(alice, website)
    response = _press(alice, move, website, task=theirs.pk)
    assert response.status_code == 404 and "task: this task is not in your projects" in response.content.decode()
    Task.objects.filter(pk=urgent.pk).update(status="done")
    stale = _press(alice, move, website)
    assert stale.status_code == 409 and f"task: {urgent.key} is done since the answer" in stale.content.decode()
    assert not Run.objects.filter(capability="crud").exists() and _assignee(theirs) == "bob"
