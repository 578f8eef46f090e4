"""A suite of clean runs through the API: queries, create, update, delete, bulk updates, clarify, a quick action.

Each scenario seeds only what it needs, in its own project or under its own titles, so one run's
query never sees another scenario's rows.
"""
from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from projects.models import Project
from tasks.services import task_create
from tests.llm_stub import LLMStub

from .helpers import confirm, make_tasks, post_request, route_json, visible_page

HOME = {"page": "home", "origin": "sidebar"}


def run_scenarios(stub: LLMStub, alice: User, website: Project, mobile: Project) -> dict[str, str]:
    """Run every scenario to its end (approving what asks for it) and return run ids by name."""
    runs: dict[str, str] = {}

    make_tasks(alice, website, 3, prefix="Blocked", status="blocked", assignee=alice)
    stub.push_json(route_json("query", status_filter=["blocked"]))
    stub.push_text("Three tasks are blocked; start with the oldest.")
    runs["query_small"] = post_request(alice, HOME, message="which tasks are blocked?")["run_id"]

    make_tasks(alice, mobile, 15, prefix="Mobile")
    stub.push_json(route_json("query"))
    stub.push_text("The Mobile App has fifteen open tasks, all still to do.")
    page = {"page": "task_list", "origin": "sidebar", "routeParams": {"projectId": mobile.pk}}
    runs["query_large"] = post_request(alice, page, message="what is in this project?")["run_id"]

    stub.push_json(route_json("crud", operation="create", title="Write release notes"))
    page = {"page": "project_detail", "origin": "sidebar", "selectedEntity": {"type": "project", "id": website.pk},
            "routeParams": {"projectId": website.pk}}
    runs["create"] = post_request(alice, page, message="add a task: write release notes")["run_id"]

    login = task_create(actor=alice, project=website, title="Fix login page", status="in_progress")
    stub.push_json(route_json("crud", operation="update", task_id=login.pk, status="done",
                              expected_title="Fix login page", expected_status="in_progress"))
    runs["update"] = post_request(alice, HOME, message=f"mark #{login.pk} as done")["run_id"]

    banner = task_create(actor=alice, project=website, title="Old banner")
    stub.push_json(route_json("crud", operation="delete", scope="selected", expected_title="Old banner"))
    page = {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": banner.pk}}
    asked = post_request(alice, page, message="delete this task")
    assert asked["status"] == "needs_confirmation", asked
    runs["delete"] = confirm(alice, asked["run_id"])["run_id"]

    for count in (6, 15):
        tasks = make_tasks(alice, website, count, prefix=f"Bulk{count}")
        asked = post_request(alice, visible_page(tasks), action="mark_visible_done")
        assert asked["status"] == "needs_confirmation", asked
        runs[f"bulk_{count}"] = confirm(alice, asked["run_id"])["run_id"]

    stub.push_json(route_json("query", confidence=0.2))
    runs["clarify"] = post_request(alice, HOME, message="hmm, the thing from before?")["run_id"]

    late = task_create(actor=alice, project=website, title="Renew certificate", assignee=alice,
                       due_date=timezone.localdate() - timedelta(days=3))
    assert late.status == "todo"
    runs["my_overdue"] = post_request(alice, {"page": "home", "origin": "workbench"}, action="my_overdue")["run_id"]

    stub.assert_all_consumed()
    return runs


EXPECTED_STATUS = {**dict.fromkeys(("query_small", "query_large", "create", "update", "delete", "bulk_6", "bulk_15",
                                    "my_overdue"), "done"), "clarify": "needs_clarification"}
