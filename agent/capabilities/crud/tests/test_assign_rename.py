"""Assign, unassign and rename one task: asked whole they run at once and undo; otherwise a card comes first.

The person is found among the members of the user's projects: a name nobody there has is asked
about (naming the word), a member of another of the user's projects is refused (naming the field),
a task in a project the user is not in is not found. English and Chinese alike.
"""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agent.models import Alert, Confirmation, Run
from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.helpers import LLMStub, api_client, ask, confirm, route_json, selected_page

pytestmark = pytest.mark.django_db


@pytest.fixture
def task(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Fix login page", assignee=alice, status="in_progress")


def _untouched(task: Task) -> bool:
    task.refresh_from_db()
    return task.assignee is not None and task.assignee.username == "alice" and task.title == "Fix login page" \
        and not TaskActivity.objects.exclude(kind="created").exists()


def _undo(user: User, run_id: str) -> None:
    response = api_client(user).post(f"/api/assistant/runs/{run_id}/undo/", {}, format="json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("message", ["assign WEB-{id} to carol", "please assign task {id} to carol",
                                     "把任务{id}分配给carol", "帮我把任务{id}分配给 carol"])
def test_an_assign_asked_whole_runs_at_once_and_undoes(alice: User, task: Task, message: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "done" and body["confirmation"] is None, body
    task.refresh_from_db()
    assert task.assignee is not None and task.assignee.username == "carol"
    assert "carol" in body["reply"] and body["undo_until"]
    # The person's id reached the write bound to the server's lookup: the run passes its four-point audit.
    run = Run.objects.get(pk=body["run_id"])
    assert run.audit["passed"], run.audit
    assert not Alert.objects.filter(run=run, kind=Alert.Kind.AUDIT_FAILED).exists()
    _undo(alice, body["run_id"])
    assert _untouched_but_logged(task, assignee="alice", title="Fix login page")


def _untouched_but_logged(task: Task, *, assignee: str | None, title: str) -> bool:
    task.refresh_from_db()
    return (task.assignee.username if task.assignee else None) == assignee and task.title == title


@pytest.mark.parametrize(("message", "title"), [("rename task {id} to Launch plan", "Launch plan"),
                                                ("could you rename WEB-{id} to 'Login: fix it'?", "Login: fix it"),
                                                ("把任务{id}改名为发布计划", "发布计划")])
def test_a_rename_asked_whole_runs_at_once_and_undoes(alice: User, task: Task, message: str, title: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "done", body
    task.refresh_from_db()
    assert task.title == title and title in body["reply"] and "Fix login page" in body["reply"]
    _undo(alice, body["run_id"])
    assert _untouched_but_logged(task, assignee="alice", title="Fix login page")


@pytest.mark.parametrize("message", ["unassign task {id}", "把任务{id}取消分配"])
def test_an_unassign_leaves_the_task_to_nobody(alice: User, task: Task, message: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "done", body
    task.refresh_from_db()
    assert task.assignee is None


@pytest.mark.parametrize("message", ["once QA signs off, assign task {id} to carol",
                                     "等客户确认后再把任务{id}分配给carol",
                                     "rename task {id} to Launch plan if the client agrees"])
def test_a_change_not_asked_whole_waits_on_the_card_and_changes_only_on_approval(alice: User, task: Task,
                                                                                 message: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "needs_confirmation", body
    assert _untouched(task)
    approved = confirm(alice, body["run_id"])
    assert approved["status"] == "done", approved
    task.refresh_from_db()
    assert task.title == "Launch plan" if "rename" in message else task.assignee.username == "carol"  # type: ignore[union-attr]


def test_a_rejected_card_changes_nothing(alice: User, task: Task) -> None:
    body = ask(alice, f"once QA signs off, assign task {task.pk} to carol", selected_page(task))
    assert confirm(alice, body["run_id"], "reject")["status"] == "done"
    assert _untouched(task)


def test_a_model_routed_assign_the_words_did_not_ask_for_waits_on_the_card(alice: User, task: Task,
                                                                           openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("crud", operation="assign", task_id=task.pk, assignee="carol"))
    body = ask(alice, f"carol asked me to assign task {task.pk} to her", selected_page(task))
    assert body["status"] == "needs_confirmation" and "carol" in body["reply"], body
    assert _untouched(task)
    assert confirm(alice, body["run_id"])["status"] == "done"
    task.refresh_from_db()
    assert task.assignee is not None and task.assignee.username == "carol"


@pytest.mark.parametrize(("message", "said"), [
    ("assign task {id} to zed", "I couldn't find anyone called “zed” among the members of your projects"),
    ("把任务{id}分配给zed", "在你的项目成员中找不到“zed”"),
    # bob is a member only of a project alice is not in: the same as nobody.
    ("assign task {id} to bob", "I couldn't find anyone called “bob”"),
])
def test_an_unknown_person_is_asked_about_by_name(alice: User, bob: User, platform: Project, task: Task,
                                                  message: str, said: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "needs_clarification" and body["reply"].startswith(said), body
    assert _untouched(task) and not Confirmation.objects.exists()


def test_a_member_of_another_project_is_refused_naming_the_field(alice: User, carol: User, website: Project,
                                                                 mobile: Project) -> None:
    other = task_create(actor=alice, project=mobile, title="Ship the app")
    body = ask(alice, f"assign task {other.pk} to carol", selected_page(other))
    assert body["status"] == "error" and "assignee" in body["reply"] and "Mobile App" in body["reply"], body
    other.refresh_from_db()
    assert other.assignee is None


@pytest.mark.parametrize("message", ["assign task {id} to carol", "rename task {id} to Mine now",
                                     "把任务{id}分配给carol", "unassign task {id}"])
def test_a_task_of_a_project_the_user_is_not_in_is_refused(alice: User, bob: User, carol: User,
                                                            platform: Project, website: Project,
                                                            message: str) -> None:
    theirs = task_create(actor=bob, project=platform, title="Their task", assignee=bob)
    body = ask(alice, message.format(id=theirs.pk), {"page": "home", "origin": "sidebar"})
    not_found = ("I couldn't find that task", "在你的项目中找不到这个任务")
    assert body["status"] == "error" and body["reply"].startswith(not_found), body
    theirs.refresh_from_db()
    assert theirs.title == "Their task" and theirs.assignee == bob
    assert not TaskActivity.objects.exclude(kind="created").exists()


@pytest.mark.parametrize("message", ["take alice off task {id}", "remove alice from WEB-{id}",
                                     "把alice从任务{id}上撤下来"])
def test_an_unassign_naming_the_assignee_leaves_the_task_to_nobody(alice: User, task: Task, message: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "done", body
    task.refresh_from_db()
    assert task.assignee is None


@pytest.mark.parametrize(("message", "said"), [
    ("take carol off task {id}", "not assigned to carol"),  # a member, but not the task's assignee
    ("把carol从任务{id}上撤下来", "负责人不是 carol"),
    ("remove tags from task {id}", "“tags”"),  # no one at all: a word that names nobody changes nothing
    ("take notes from task {id}", "“notes”"),
])
def test_an_unassign_naming_someone_else_changes_nothing(alice: User, task: Task, message: str, said: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] in ("done", "needs_clarification") and body["confirmation"] is None, body
    assert said in body["reply"], body["reply"]
    assert _untouched(task)


def test_an_assign_that_changes_nothing_says_the_assignee_it_had(alice: User, task: Task) -> None:
    body = ask(alice, f"assign task {task.pk} to alice", selected_page(task))
    assert body["status"] == "done", body
    assert "already had assignee alice" in body["reply"], body["reply"]
