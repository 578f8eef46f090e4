"""The update tool: one task, scoped to the user's projects, reporting whether anything changed."""
from __future__ import annotations

from uuid import uuid4

import pytest
from django.contrib.auth.models import User

from agent.capabilities.crud.tools import update_task
from pm_assistant.errors import Forbidden, NotFound
from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.services import task_create, task_delete

pytestmark = pytest.mark.django_db


def test_changes_the_task_and_says_whether_a_value_changed(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship it")
    run_id = uuid4()
    first = update_task(user=alice, task_id=task.pk, run_id=run_id, status="done")
    again = update_task(user=alice, task_id=task.pk, run_id=uuid4(), status="done")
    assert (first["status"], first["changed"], again["changed"]) == ("done", True, False)
    assert set(TaskActivity.objects.filter(task=task, run_id=run_id).values_list("field", flat=True)) == {
        "status", "progress"}


def test_another_users_task_and_a_deleted_one_are_the_same_not_found(
        alice: User, bob: User, platform: Project, website: Project) -> None:
    theirs = task_create(actor=bob, project=platform, title="Bob's")
    gone = task_create(actor=alice, project=website, title="Gone")
    task_delete(actor=alice, task=gone)
    for task_id in (theirs.pk, gone.pk):
        with pytest.raises(NotFound) as caught:
            update_task(user=alice, task_id=task_id, run_id=uuid4(), status="done")
        assert (caught.value.field, caught.value.message) == ("task", f"Task {task_id} was not found.")
    assert Task.objects.get(pk=theirs.pk).status == "todo"
    assert not TaskActivity.objects.filter(task_id=theirs.pk, kind="status").exists()


def test_a_viewer_is_refused(alice: User, dave: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Read only for dave")
    with pytest.raises(Forbidden):
        update_task(user=dave, task_id=task.pk, run_id=uuid4(), priority="P0")
    assert Task.objects.get(pk=task.pk).priority == "P2"
