"""Bad requests to POST /api/assistant/requests/: 400 naming the field, nothing written, never 500."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from agent.models import Alert, Confirmation, Run, TraceEvent
from pm_assistant.vocabulary import STATUSES
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.clients import api_client

URL = "/api/assistant/requests/"
Ids = dict[str, int]
Body = Callable[[Ids], Any]


@pytest.fixture
def ids(alice: Any, bob: Any, website: Any, mobile: Any, platform: Any) -> Ids:
    """Tasks and projects on both sides of alice's visibility."""
    mine = task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    other = task_create(actor=alice, project=mobile, title="Ship beta")
    hidden = task_create(actor=bob, project=platform, title="Rotate warehouse keys")
    return {"task": mine.pk, "task2": other.pk, "hidden_task": hidden.pk, "project": website.pk,
            "hidden_project": platform.pk}


def ctx(**fields: Any) -> Body:
    """A free-text request whose page context has these fields on top of a valid base."""
    def build(ids: Ids) -> dict[str, Any]:
        page = {"page": "task_list", "origin": "sidebar"}
        for key, value in fields.items():
            page[key] = value(ids) if callable(value) else value
        return {"message": "show my tasks", "page_context": {k: v for k, v in page.items() if v is not ...}}
    return build


def body(value: Any) -> Body:
    return lambda ids: value(ids) if callable(value) else value


PAGE = {"page": "task_list", "origin": "sidebar"}
CASES: list[tuple[str, Body, str]] = [
    # wrong types and unknown enum values
    ("page-type", ctx(page=5), "page_context.page"),
    ("page-enum", ctx(page="settings"), "page_context.page"),
    ("page-missing", ctx(page=...), "page_context.page"),
    ("origin-enum", ctx(origin="email"), "page_context.origin"),
    ("origin-missing", ctx(origin=...), "page_context.origin"),
    ("selected-not-object", ctx(selectedEntity="task"), "page_context.selectedEntity"),
    ("selected-type-enum", ctx(selectedEntity={"type": "user", "id": 1}), "page_context.selectedEntity.type"),
    ("selected-id-string", ctx(selectedEntity={"type": "task", "id": "12"}), "page_context.selectedEntity.id"),
    ("selected-id-float", ctx(selectedEntity={"type": "task", "id": 1.5}), "page_context.selectedEntity.id"),
    ("selected-id-bool", ctx(selectedEntity={"type": "task", "id": True}), "page_context.selectedEntity.id"),
    ("selected-id-zero", ctx(selectedEntity={"type": "task", "id": 0}), "page_context.selectedEntity.id"),
    ("route-project-string", ctx(routeParams={"projectId": "abc"}), "page_context.routeParams.projectId"),
    ("route-task-negative", ctx(routeParams={"taskId": -1}), "page_context.routeParams.taskId"),
    ("tab-type", ctx(activeTab=3), "page_context.activeTab"),
    ("tab-pattern", ctx(activeTab="Overview<script>"), "page_context.activeTab"),
    ("view-mode-enum", ctx(viewMode="table"), "page_context.viewMode"),
    ("filters-not-object", ctx(filters=["todo"]), "page_context.filters"),
    ("status-not-list", ctx(filters={"status": "todo"}), "page_context.filters.status"),
    ("status-enum", ctx(filters={"status": ["todo", "archived"]}), "page_context.filters.status[1]"),
    ("priority-enum", ctx(filters={"priority": ["P9"]}), "page_context.filters.priority[0]"),
    ("assignee-word", ctx(filters={"assignee": "you"}), "page_context.filters.assignee"),
    ("assignee-zero", ctx(filters={"assignee": 0}), "page_context.filters.assignee"),
    ("due-before-date", ctx(filters={"dueBefore": "tomorrow"}), "page_context.filters.dueBefore"),
    ("due-range", ctx(filters={"dueAfter": "2030-02-01", "dueBefore": "2030-01-01"}), "page_context.filters"),
    ("label-too-long", ctx(filters={"labels": ["x" * 41]}), "page_context.filters.labels[0]"),
    ("labels-too-many", ctx(filters={"labels": [f"l{i}" for i in range(21)]}), "page_context.filters.labels"),
    ("visible-not-list", ctx(visibleEntityIds="1,2"), "page_context.visibleEntityIds"),
    ("visible-item-type", ctx(visibleEntityIds=lambda i: [i["task"], "x"]), "page_context.visibleEntityIds[1]"),
    ("keyword-type", ctx(searchKeyword=["a"]), "page_context.searchKeyword"),
    ("pagination-page-string", ctx(pagination={"page": "2"}), "page_context.pagination.page"),
    # unknown keys, top-level and nested
    ("unknown-top", ctx(userRole="admin"), "page_context.userRole"),
    ("unknown-top-odd-name", ctx(**{"user role": "admin"}), "page_context.user role"),
    ("unknown-selected", ctx(selectedEntity=lambda i: {"type": "task", "id": i["task"], "title": "x"}),
     "page_context.selectedEntity.title"),
    ("unknown-route", ctx(routeParams={"orgId": 1}), "page_context.routeParams.orgId"),
    ("unknown-filter", ctx(filters={"owner": "me"}), "page_context.filters.owner"),
    ("unknown-pagination", ctx(pagination={"offset": 5}), "page_context.pagination.offset"),
    # sizes
    ("visible-501", ctx(visibleEntityIds=list(range(1, 502))), "page_context.visibleEntityIds"),
    ("keyword-201", ctx(searchKeyword="k" * 201), "page_context.searchKeyword"),
    ("page-size-101", ctx(pagination={"page": 1, "pageSize": 101}), "page_context.pagination.pageSize"),
    ("page-size-0", ctx(pagination={"page": 1, "pageSize": 0}), "page_context.pagination.pageSize"),
    ("page-0", ctx(pagination={"page": 0, "pageSize": 25}), "page_context.pagination.page"),
    ("huge-selected-id", ctx(selectedEntity={"type": "task", "id": 10**30}), "page_context.selectedEntity.id"),
    ("huge-page", ctx(pagination={"page": 10**20}), "page_context.pagination.page"),
    ("huge-visible-id", ctx(visibleEntityIds=[2**63]), "page_context.visibleEntityIds[0]"),
    ("huge-route-id", ctx(routeParams={"projectId": -(10**40)}), "page_context.routeParams.projectId"),
    # ids of things alice cannot see (Data Platform) or that do not exist
    ("hidden-selected-task", ctx(selectedEntity=lambda i: {"type": "task", "id": i["hidden_task"]}),
     "page_context.selectedEntity.id"),
    ("hidden-selected-project", ctx(selectedEntity=lambda i: {"type": "project", "id": i["hidden_project"]}),
     "page_context.selectedEntity.id"),
    ("hidden-route-task", ctx(routeParams=lambda i: {"taskId": i["hidden_task"]}),
     "page_context.routeParams.taskId"),
    ("hidden-route-project", ctx(routeParams=lambda i: {"projectId": i["hidden_project"]}),
     "page_context.routeParams.projectId"),
    ("hidden-visible-id", ctx(visibleEntityIds=lambda i: [i["task"], i["hidden_task"], i["task2"]]),
     "page_context.visibleEntityIds[1]"),
    # A deleted task in the page's lists is dropped (test_stale_page_context.py); the page's own task is not.
    ("missing-route-task", ctx(routeParams={"taskId": 987_654}), "page_context.routeParams.taskId"),
    # message and action
    ("message-and-action", body({"message": "hi", "action": "my_overdue", "page_context": PAGE}), "message"),
    ("neither", body({"page_context": PAGE}), "message"),
    ("blank-message", body({"message": "", "page_context": PAGE}), "message"),
    ("null-message", body({"message": None, "page_context": PAGE}), "message"),
    ("message-list", body({"message": ["a"], "page_context": PAGE}), "message"),
    ("message-2001", body({"message": "m" * 2001, "page_context": PAGE}), "message"),
    ("unknown-action", body({"action": "launch_rocket", "page_context": PAGE}), "action"),
    ("action-wrong-origin", body({"action": "mark_done", "page_context": PAGE}), "action"),
    ("action-wrong-origin-workbench",
     body({"action": "delete_task", "page_context": {"page": "home", "origin": "workbench"}}), "action"),
    # the body itself
    ("unknown-body-key", body({"message": "hi", "page_context": PAGE, "context": {}}), "context"),
    ("user-id-in-body", body({"message": "hi", "page_context": PAGE, "userId": 1}), "userId"),
    ("no-page-context", body({"message": "hi"}), "page_context"),
    ("page-context-list", body({"message": "hi", "page_context": [PAGE]}), "page_context"),
    ("page-context-string", body({"message": "hi", "page_context": "task_list"}), "page_context"),
    ("page-context-null", body({"message": "hi", "page_context": None}), "page_context"),
    ("body-list", body([{"message": "hi", "page_context": PAGE}]), "body"),
]



def _written() -> tuple[int, ...]:
    return (Run.objects.count(), Confirmation.objects.count(), TraceEvent.objects.count(), Alert.objects.count(),
            Task.objects.count(), TaskActivity.objects.count())


@pytest.mark.parametrize(("build", "field"), [(b, f) for _, b, f in CASES], ids=[name for name, _, _ in CASES])
def test_invalid_request_is_a_400_naming_the_field(alice: Any, ids: Ids, build: Body, field: str) -> None:
    before = _written()
    response = api_client(alice).post(URL, build(ids), format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert field in error["fields"], error
    reasons = error["fields"][field]
    assert reasons and all(isinstance(r, str) and r.strip() for r in reasons)
    assert error["message"].startswith(f"{field}: "), error["message"]
    assert len(error["message"]) > len(field) + 5
    assert _written() == before


@pytest.mark.parametrize(("raw", "content_type", "status", "code"), [
    (b"not json {", "application/json", 400, "malformed_request"),
    (b'{"message": "hi", "page_context": ', "application/json", 400, "malformed_request"),
    (b"9" * 5000, "application/json", 400, "malformed_request"),
    (b'{"message": "hi", "page_context": {"page": "home", "origin": "sidebar", "pagination": {"page": NaN}}}',
     "application/json", 400, "malformed_request"),
    (b"\xff\xfe\x00garbage", "application/json", 400, "malformed_request"),
    (b"message=hi", "text/plain", 415, "unsupported_media_type"),
])
def test_unreadable_body_is_refused_without_a_500(alice: Any, ids: Ids, raw: bytes, content_type: str,
                                                  status: int, code: str) -> None:
    before = _written()
    response = api_client(alice).post(URL, raw, content_type=content_type)
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code
    if code == "malformed_request":
        assert list(response.json()["error"]["fields"]) == ["body"]
    assert _written() == before


def test_anonymous_request_is_refused(ids: Ids) -> None:
    response = APIClient().post(URL, {"message": "hi", "page_context": PAGE}, format="json")
    assert response.status_code in (401, 403)
    assert not Run.objects.exists()


def test_limits_themselves_are_accepted(alice: Any, website: Any) -> None:
    """The boundaries pass, so the 400s above come from the limits and not from something else."""
    tasks = Task.objects.bulk_create(Task(project=website, title=f"Row {n}") for n in range(500))
    visible = [t.pk for t in tasks] if tasks[0].pk else list(website.tasks.values_list("pk", flat=True))
    page = {"page": "task_list", "origin": "workbench", "visibleEntityIds": visible, "searchKeyword": "k" * 200,
            "pagination": {"page": 100_000, "pageSize": 100}, "activeTab": "a" * 40,
            "filters": {"labels": ["x" * 40] * 20, "assignee": "me", "status": list(STATUSES)},
            "routeParams": {"projectId": website.pk}}
    response = api_client(alice).post(URL, {"action": "my_overdue", "page_context": page}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "done"
