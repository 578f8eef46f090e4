"""Task services and selectors: permissions, history on every change, and rules the database enforces."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from pm_assistant.errors import Forbidden, InvalidInput, NotFound
from projects.models import Project
from projects.selectors import project_get_for_user, project_list_for_user
from tasks.filters import TaskFilters
from tasks.models import Task, TaskActivity
from tasks.selectors import task_get_for_user, task_list_for_user
from tasks.services import task_bulk_set_status, task_create, task_delete, task_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def web_task(website: Project, alice: User, carol: User) -> Task:
    return task_create(actor=alice, project=website, title="Design the homepage", assignee=carol,
                       start_date=date(2026, 1, 5), due_date=date(2026, 1, 20))


@pytest.fixture
def data_task(platform: Project, bob: User) -> Task:
    return task_create(actor=bob, project=platform, title="Migrate the orders pipeline")


def _kinds(task: Task) -> list[tuple[str, str, str, str]]:
    return list(TaskActivity.objects.filter(task=task).order_by("id").values_list("kind", "field", "from_value",
                                                                                   "to_value"))


def _snapshot() -> tuple[list[tuple[Any, ...]], int]:
    rows = list(Task.objects.order_by("id").values_list("id", "title", "status", "progress", "assignee_id"))
    return rows, TaskActivity.objects.count()


# --- permissions -----------------------------------------------------------------------------

VIEWER_WRITES: dict[str, Callable[[User, Project, Task], Any]] = {
    "create": lambda dave, website, task: task_create(actor=dave, project=website, title="Sneaky"),
    "update": lambda dave, website, task: task_update(actor=dave, task=task, title="Renamed"),
    "status": lambda dave, website, task: task_update(actor=dave, task=task, status="done"),
    "delete": lambda dave, website, task: task_delete(actor=dave, task=task),
    "bulk_status": lambda dave, website, task: task_bulk_set_status(actor=dave, tasks=[task], status="done"),
}


@pytest.mark.parametrize("operation", list(VIEWER_WRITES))
def test_viewer_cannot_write_through_any_service(operation: str, dave: User, website: Project, web_task: Task) -> None:
    before = _snapshot()
    with pytest.raises(Forbidden) as raised:
        VIEWER_WRITES[operation](dave, website, web_task)
    assert raised.value.code == "forbidden"
    assert _snapshot() == before


def test_viewer_can_still_read(dave: User, web_task: Task) -> None:
    assert task_get_for_user(user=dave, task_id=web_task.pk) == web_task


NON_MEMBER_WRITES: dict[str, Callable[[User, Project, Task], Any]] = {
    "create": lambda alice, platform, task: task_create(actor=alice, project=platform, title="Sneaky"),
    "update": lambda alice, platform, task: task_update(actor=alice, task=task, title="Renamed"),
    "delete": lambda alice, platform, task: task_delete(actor=alice, task=task),
    "bulk_status": lambda alice, platform, task: task_bulk_set_status(actor=alice, tasks=[task], status="done"),
}


@pytest.mark.parametrize("operation", list(NON_MEMBER_WRITES))
def test_non_member_gets_not_found_never_forbidden(operation: str, alice: User, platform: Project,
                                                   data_task: Task) -> None:
    before = _snapshot()
    with pytest.raises(NotFound):
        NON_MEMBER_WRITES[operation](alice, platform, data_task)
    assert _snapshot() == before


def test_alice_cannot_see_data_platform(alice: User, carol: User, website: Project, mobile: Project,
                                        platform: Project, web_task: Task, data_task: Task) -> None:
    assert set(project_list_for_user(user=alice)) == {website, mobile}
    assert set(project_list_for_user(user=carol)) == {website, platform}
    with pytest.raises(NotFound):
        project_get_for_user(user=alice, project_id=platform.pk)
    with pytest.raises(NotFound):
        task_get_for_user(user=alice, task_id=data_task.pk)
    assert list(task_list_for_user(user=alice)) == [web_task]
    assert list(task_list_for_user(user=alice, filters=TaskFilters(project_id=platform.pk))) == []
    assert set(task_list_for_user(user=carol)) == {web_task, data_task}


# --- history ---------------------------------------------------------------------------------

def test_create_records_one_created_activity(web_task: Task, alice: User) -> None:
    activity = TaskActivity.objects.get(task=web_task)
    assert (activity.kind, activity.actor, activity.to_value) == ("created", alice, "todo")
    assert activity.project_id == web_task.project_id and activity.task_title == "Design the homepage"


def test_status_change_records_status_and_completion(web_task: Task, carol: User) -> None:
    task = task_update(actor=carol, task=web_task, status="done")
    assert task.completed_at is not None and task.progress == 100
    assert _kinds(task)[1:] == [("status", "status", "todo", "done"), ("progress", "progress", "0", "100")]


def test_assignee_change_records_usernames(web_task: Task, alice: User) -> None:
    task_update(actor=alice, task=web_task, assignee=alice)
    task_update(actor=alice, task=web_task, assignee=None)
    assert _kinds(web_task)[1:] == [("assigned", "assignee", "carol", "alice"), ("assigned", "assignee", "alice", "")]


def test_progress_change_is_recorded(web_task: Task, carol: User) -> None:
    task_update(actor=carol, task=web_task, progress=40)
    assert _kinds(web_task)[1:] == [("progress", "progress", "0", "40")]


def test_field_updates_record_one_row_per_changed_field(web_task: Task, alice: User) -> None:
    task_update(actor=alice, task=web_task, title="Design the new homepage", due_date=date(2026, 2, 1),
                priority=web_task.priority, labels=["design", "frontend"])
    assert _kinds(web_task)[1:] == [
        ("updated", "title", "Design the homepage", "Design the new homepage"),
        ("updated", "due_date", "2026-01-20", "2026-02-01"),
        ("updated", "labels", "", "design, frontend"),
    ]


def test_update_without_changes_records_nothing(web_task: Task, alice: User) -> None:
    task = task_update(actor=alice, task=web_task, title=web_task.title, status=web_task.status,
                       assignee=web_task.assignee, labels=[])
    assert len(_kinds(web_task)) == 1
    assert task.changed_fields == ()


def test_update_names_the_fields_it_changed(web_task: Task, alice: User) -> None:
    task = task_update(actor=alice, task=web_task, status="done", priority=web_task.priority, labels=["design"])
    assert task.changed_fields == ("status", "progress", "labels")
    task = task_update(actor=alice, task=Task(pk=web_task.pk), due_date=date(2026, 3, 1), assignee=alice)
    assert task.changed_fields == ("due_date", "assignee_id")


def test_update_reads_the_row_again_and_logs_in_one_statement(
        web_task: Task, alice: User, django_assert_max_num_queries: Any) -> None:
    stale = Task(pk=web_task.pk, title="a title the database does not have", status="blocked")
    # savepoint/begin, the project's lock, locked read, role, log, row, commit
    with django_assert_max_num_queries(7) as captured:
        task = task_update(actor=alice, task=stale, status="done")
    assert sum('INSERT INTO "tasks_taskactivity"' in q["sql"] for q in captured.captured_queries) == 1
    assert _kinds(task)[1:] == [("status", "status", "todo", "done"), ("progress", "progress", "0", "100")]
    assert task.title == "Design the homepage"


def test_delete_keeps_history_for_the_task_and_its_subtasks(web_task: Task, website: Project, alice: User) -> None:
    sub = task_create(actor=alice, project=website, title="Wireframes", parent=web_task)
    result = task_delete(actor=alice, task=web_task)
    assert (result.id, result.subtasks_deleted) == (web_task.pk, 1)
    assert not Task.objects.filter(pk__in=[web_task.pk, sub.pk]).exists()
    deleted = TaskActivity.objects.filter(kind="deleted").order_by("task_title")
    assert [(a.task_title, a.task_id, a.actor) for a in deleted] == [
        ("Design the homepage", None, alice), ("Wireframes", None, alice)
    ]


# --- validation in the services ----------------------------------------------------------------

@pytest.mark.parametrize(("changes", "field"), [
    ({"status": "finished"}, "status"),
    ({"priority": "P9"}, "priority"),
    ({"progress": 101}, "progress"),
    ({"title": "   "}, "title"),
    ({"start_date": date(2026, 2, 1)}, "due_date"),
])
def test_update_rejects_bad_values_naming_the_field(web_task: Task, alice: User, changes: dict[str, Any],
                                                    field: str) -> None:
    before = _snapshot()
    with pytest.raises(InvalidInput) as raised:
        task_update(actor=alice, task=web_task, **changes)
    assert raised.value.field == field
    assert _snapshot() == before


def test_create_rejects_unknown_status_before_the_database(website: Project, alice: User) -> None:
    with pytest.raises(InvalidInput) as raised:
        task_create(actor=alice, project=website, title="x", status="finished")
    assert raised.value.field == "status"
    assert not Task.objects.exists()


def test_assignee_must_be_a_member(web_task: Task, alice: User, bob: User) -> None:
    with pytest.raises(InvalidInput) as raised:
        task_update(actor=alice, task=web_task, assignee=bob)
    assert raised.value.field == "assignee"


def test_parent_must_be_in_the_same_project(web_task: Task, mobile: Project, alice: User) -> None:
    with pytest.raises(InvalidInput) as raised:
        task_create(actor=alice, project=mobile, title="Stray", parent=web_task)
    assert raised.value.field == "parent"


def test_parent_cannot_be_a_descendant(web_task: Task, website: Project, alice: User) -> None:
    child = task_create(actor=alice, project=website, title="Child", parent=web_task)
    grandchild = task_create(actor=alice, project=website, title="Grandchild", parent=child)
    with pytest.raises(InvalidInput, match="subtasks"):
        task_update(actor=alice, task=web_task, parent=grandchild)
    web_task.refresh_from_db()
    assert web_task.parent is None


# --- constraints the database holds, whatever the code does --------------------------------------

@pytest.mark.parametrize("progress", [101, -1])
def test_progress_outside_0_100_is_refused_by_the_database(web_task: Task, progress: int) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Task.objects.filter(pk=web_task.pk).update(progress=progress)


def test_due_before_start_is_refused_by_the_database(web_task: Task) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Task.objects.filter(pk=web_task.pk).update(due_date=web_task.start_date - timedelta(days=1))


@pytest.mark.parametrize(("field", "value"), [("status", "finished"), ("priority", "P9")])
def test_unknown_choices_are_refused_by_the_database(web_task: Task, field: str, value: str) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Task.objects.filter(pk=web_task.pk).update(**{field: value})


def test_task_cannot_be_its_own_parent_in_the_database(web_task: Task) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Task.objects.filter(pk=web_task.pk).update(parent=web_task)


@pytest.mark.django_db(transaction=True)
def test_parent_in_another_project_is_refused_by_the_database(website: Project, mobile: Project,
                                                              alice: User) -> None:
    """SQLite refuses at the statement (trigger), PostgreSQL at commit (deferred composite key)."""
    parent = task_create(actor=alice, project=website, title="Parent")
    other = task_create(actor=alice, project=mobile, title="Elsewhere")
    with pytest.raises(IntegrityError), transaction.atomic():
        Task.objects.filter(pk=other.pk).update(parent=parent)
    with pytest.raises(IntegrityError), transaction.atomic():
        Task.objects.create(project=mobile, title="Inserted stray", parent=parent)
    assert Task.objects.filter(parent=parent).count() == 0


# --- bulk status -------------------------------------------------------------------------------

def test_bulk_status_changes_every_task(web_task: Task, website: Project, alice: User) -> None:
    second = task_create(actor=alice, project=website, title="Second")
    tasks = task_bulk_set_status(actor=alice, tasks=[web_task, second], status="in_progress")
    assert [t.status for t in tasks] == ["in_progress", "in_progress"]
    assert TaskActivity.objects.filter(kind="status").count() == 2


def test_bulk_status_is_all_or_nothing(web_task: Task, data_task: Task, mobile: Project, alice: User) -> None:
    mine = task_create(actor=alice, project=mobile, title="Mine")
    before = _snapshot()
    with pytest.raises(NotFound):
        task_bulk_set_status(actor=alice, tasks=[web_task, mine, data_task], status="done")
    assert _snapshot() == before
    assert not TaskActivity.objects.filter(kind="status").exists()
