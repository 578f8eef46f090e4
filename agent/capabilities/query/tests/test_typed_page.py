"""A typed request answered from the template does the quick button's work: the same page, count and reads."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agent.models import Artifact
from projects.models import Project
from tasks.models import Task
from tasks.paging import cursor_decode
from tests.data_layer.helpers import events, post_request

pytestmark = pytest.mark.django_db
HOME = {"page": "home", "origin": "sidebar"}


@pytest.fixture
def overdue(alice: User, website: Project) -> None:
    past = timezone.localdate() - timedelta(days=3)
    Task.objects.bulk_create(Task(project=website, title=f"Late {i}", assignee=alice, due_date=past - timedelta(days=i),
                                  created_by=alice) for i in range(40))


def _query_call(run: dict[str, Any]) -> dict[str, Any]:
    (call,) = events(run["run_id"], "tool_call", "query_tasks")
    return call.payload


@pytest.mark.parametrize("message", ["show my overdue tasks", "我逾期的任务有哪些"])
def test_a_typed_overdue_question_reads_the_quick_buttons_page_and_stores_nothing(
        overdue: None, alice: User, message: str) -> None:
    quick = post_request(alice, {**HOME, "origin": "quick_button"}, action="my_overdue")
    typed = post_request(alice, HOME, message=message)

    assert typed["status"] == quick["status"] == "done", typed
    assert typed["route"]["capability"] == "query" and typed["route"]["via"] != "fast_path"
    # The same keyset page and the same count, both from one bounded read and the counters.
    assert typed["data"]["items"] == quick["data"]["items"] and len(quick["data"]["items"]) == 10
    assert typed["data"]["count"] == quick["data"]["count"] == 40
    assert _query_call(typed)["result"] == _query_call(quick)["result"]
    assert cursor_decode(_query_call(typed)["result"]["next"]).task_id == typed["data"]["items"][-1]["id"]
    # Nothing was stored for rows no one reads.
    assert typed["data"]["artifact"] is None and not Artifact.objects.exists()
