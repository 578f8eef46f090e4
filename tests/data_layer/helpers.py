"""Helpers for the data-layer tests: API calls, the router's JSON answer, tasks and pages."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from agent.models import TraceEvent
from agent.routing.decision import ROUTE_SCHEMA
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client

REQUESTS_URL = "/api/assistant/requests/"
EMPTY_SLOTS: dict[str, Any] = {
    "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
    "scope": None, "project_name": None, "expected_title": None, "expected_status": None, "status_filter": [],
    "priority_filter": [], "assignee_me": False, "assignee": None, "unassigned": False, "due_after": None,
    "due_before": None, "preset": None, "week": None,
}
# The router's schema is strict: a scripted answer must carry every slot key, no more and no fewer.
assert set(EMPTY_SLOTS) == set(ROUTE_SCHEMA["properties"]["slots"]["required"])  # type: ignore[index]


def route_json(capability: str, confidence: float = 0.9, **slots: Any) -> dict[str, Any]:
    """The router's structured answer with every slot key present (ROUTE_SCHEMA is strict)."""
    unknown = set(slots) - set(EMPTY_SLOTS)
    assert not unknown, f"not a slot: {unknown}"
    return {"capability": capability, "confidence": confidence, "slots": {**EMPTY_SLOTS, **slots}}



def post_request(user: User, page: dict[str, Any], *, message: str | None = None,
                 action: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"page_context": page}
    body.update({"message": message} if message is not None else {"action": action})
    response = api_client(user).post(REQUESTS_URL, body, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def confirm(user: User, run_id: str, decision: str = "approve") -> dict[str, Any]:
    response = api_client(user).post(f"/api/assistant/runs/{run_id}/confirm/", {"decision": decision},
                                     format="json")
    assert response.status_code == 200, response.content
    return response.json()


def trace_of(user: User, run_id: str) -> dict[str, Any]:
    response = api_client(user).get(f"/api/assistant/runs/{run_id}/trace/")
    assert response.status_code == 200, response.content
    return response.json()


def events(run_id: str, kind: str, name: str | None = None) -> list[TraceEvent]:
    qs = TraceEvent.objects.filter(run_id=run_id, kind=kind).order_by("seq")
    return list(qs.filter(name=name) if name else qs)


def make_tasks(user: User, project: Project, count: int, *, prefix: str = "Row", status: str = "todo",
               **extra: Any) -> list[Task]:
    return [task_create(actor=user, project=project, title=f"{prefix} {n:02d}", status=status, **extra)
            for n in range(count)]


def visible_page(tasks: list[Task], **extra: Any) -> dict[str, Any]:
    return {"page": "task_list", "origin": "quick_button", "visibleEntityIds": [t.pk for t in tasks], **extra}
