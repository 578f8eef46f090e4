"""An update's reply names what the request set, read back from the database, and says when nothing changed."""
from __future__ import annotations

from typing import Any

from tasks.models import Task
from tasks.services import task_create
from tests.helpers import post_request


def _page(task: Task) -> dict[str, Any]:
    return {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk},
            "routeParams": {"taskId": task.pk}}


def test_a_priority_change_is_reported_as_the_priority(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page")
    run = post_request(alice, _page(task), message="set priority to P0")
    assert run["status"] == "done", run
    assert run["reply"] == f"Updated {task.key} “Fix login page”: priority P0."
    task.refresh_from_db()
    assert task.priority == "P0" and task.status == "todo"


def test_marking_a_done_task_done_says_nothing_changed(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page", status="done")
    run = post_request(alice, {**_page(task), "origin": "task_row"}, action="mark_done")
    assert run["reply"] == f"{task.key} “Fix login page” already had status done, so nothing was changed."
    assert run["data"]["undoable"] is False


def test_a_status_change_names_the_status_in_words(alice: Any, website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page", status="in_progress")
    run = post_request(alice, {**_page(task), "origin": "task_row"}, action="mark_done")
    assert run["reply"] == f"Updated {task.key} “Fix login page”: status done."
