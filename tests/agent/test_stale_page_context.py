"""A page that still lists a task deleted in another tab is served: the stale ids are dropped with a notice."""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from agent.models import Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create, task_delete

URL = "/api/assistant/requests/"


@pytest.fixture
def rows(alice: User, website: Project) -> list[Task]:
    return [task_create(actor=alice, project=website, title=f"Row {n}", assignee=alice) for n in range(3)]


def _post(user: User, body: dict[str, Any]) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(URL, body, format="json")


def test_deleted_visible_and_selected_ids_are_dropped_with_a_notice(alice: User, rows: list[Task]) -> None:
    gone = rows[1]
    task_delete(actor=alice, task=gone)
    page = {"page": "task_list", "origin": "sidebar", "visibleEntityIds": [t.pk for t in rows],
            "selectedEntity": {"type": "task", "id": gone.pk}}
    response = _post(alice, {"action": "my_overdue", "page_context": {**page, "origin": "quick_button"}})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "done"
    assert body["data"]["stale_task_ids"] == [gone.pk]
    assert "no longer exist" in body["data"]["notice"]
    stored = Run.objects.get(pk=body["run_id"]).page_context
    assert stored["visibleEntityIds"] == [rows[0].pk, rows[2].pk]
    assert stored["selectedEntity"] is None


def test_an_id_that_exists_but_is_hidden_is_still_refused(alice: User, bob: User, platform: Project,
                                                          rows: list[Task]) -> None:
    hidden = task_create(actor=bob, project=platform, title="Rotate keys")
    page = {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [rows[0].pk, hidden.pk, 987_654]}
    response = _post(alice, {"action": "my_overdue", "page_context": page})
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"page_context.visibleEntityIds[1]": [
        f"page_context.visibleEntityIds[1]: task {hidden.pk} is not visible to you."]}
    assert not Run.objects.exists()


def test_the_sidebar_shows_the_notice_and_refreshes_the_list(alice: User, rows: list[Task]) -> None:
    task_delete(actor=alice, task=rows[0])
    client = Client()
    client.force_login(alice)
    page = json.dumps({"page": "task_list", "origin": "quick_button", "visibleEntityIds": [rows[0].pk, rows[1].pk]})
    response = client.post("/assistant/request/", {"action": "my_overdue", "page_context": page})
    assert response.status_code == 200
    assert "no longer" in response.content.decode()
    assert "tasks-changed" in response["HX-Trigger"]


def test_a_fresh_page_gets_no_notice(alice: User, rows: list[Task]) -> None:
    page = {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [t.pk for t in rows]}
    body = _post(alice, {"action": "my_overdue", "page_context": page}).json()
    assert "notice" not in body["data"] and "stale_task_ids" not in body["data"]


def test_the_sidebar_says_a_hidden_task_is_gone_in_words_and_refreshes(alice: User, bob: User, platform: Project,
                                                                       rows: list[Task]) -> None:
    hidden = task_create(actor=bob, project=platform, title="Rotate keys")
    client = Client()
    client.force_login(alice)
    page = {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": hidden.pk}}
    response = client.post("/assistant/request/", {"message": "mark this done", "page_context": json.dumps(page)})
    assert response.status_code == 400
    html = response.content.decode()
    assert "That task no longer exists — it may have been deleted in another tab." in html
    assert "page_context" not in html and "selectedEntity" not in html and "is not visible" not in html
    assert "tasks-changed" in response["HX-Trigger"]


def test_ids_the_user_cannot_see_get_one_answer_whether_or_not_a_task_has_them(
        alice: User, bob: User, platform: Project, rows: list[Task]) -> None:
    # Someone else's task, someone else's deleted task, an id no task ever had: the same 400 for each,
    # so the page context cannot be used to probe which ids exist.
    hidden = task_create(actor=bob, project=platform, title="Rotate keys")
    deleted_elsewhere = task_create(actor=bob, project=platform, title="Old keys")
    task_delete(actor=bob, task=deleted_elsewhere)
    answers = []
    for other in (hidden.pk, deleted_elsewhere.pk, hidden.pk + 10_000):
        page = {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [rows[0].pk, other]}
        response = _post(alice, {"action": "my_overdue", "page_context": page})
        assert response.status_code == 400
        answers.append(json.dumps(response.json()).replace(str(other), "N"))
    assert answers[0] == answers[1] == answers[2]
    assert "Rotate keys" not in answers[0] and "Old keys" not in answers[0]
    assert not Run.objects.exists()


def test_a_task_deleted_from_a_project_the_user_has_left_is_no_longer_theirs_to_hear_of(
        alice: User, carol: User, website: Project, rows: list[Task]) -> None:
    from projects.models import Membership
    task_delete(actor=alice, task=rows[0])
    page = {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [rows[0].pk]}
    assert _post(carol, {"action": "my_overdue", "page_context": page}).status_code == 200  # a member: dropped
    Membership.objects.filter(user=carol, project=website).delete()
    assert _post(carol, {"action": "my_overdue", "page_context": page}).status_code == 400
