"""REST API: scoping, filters, pagination, errors that name the field, auth, and the schema."""
from __future__ import annotations

import re
from datetime import date
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.response import Response
from rest_framework.test import APIClient

from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.clients import api_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for() -> Any:
    return api_client


@pytest.fixture
def tasks(website: Project, mobile: Project, platform: Project, alice: User, bob: User, carol: User) -> dict[str, Task]:
    """Four website tasks, one mobile task and one Data Platform task alice must never see."""
    made = {
        "homepage": task_create(actor=alice, project=website, title="Design the homepage", status="in_progress",
                                priority="P1", assignee=alice, labels=["design"], due_date=date(2026, 3, 1),
                                description="Hero section and navigation."),
        "pricing": task_create(actor=alice, project=website, title="Write pricing copy", priority="P2",
                               assignee=carol, labels=["content"], due_date=date(2026, 3, 10)),
        "audit": task_create(actor=alice, project=website, title="Accessibility audit", status="blocked",
                             priority="P0", labels=["accessibility", "design"], due_date=date(2026, 3, 20)),
        "footer": task_create(actor=carol, project=website, title="Fix footer links", status="done",
                              priority="P3", due_date=date(2026, 2, 1)),
        "mobile": task_create(actor=alice, project=mobile, title="Offline mode", assignee=alice,
                              due_date=date(2026, 4, 1)),
        "data": task_create(actor=bob, project=platform, title="Orders pipeline homepage metrics"),
    }
    made["wireframes"] = task_create(actor=alice, project=website, title="Wireframes", parent=made["homepage"],
                                     due_date=date(2026, 2, 20))
    return made


def _titles(response: Response) -> list[str]:
    assert response.status_code == 200, response.json()
    return [item["title"] for item in response.json()["results"]]


def _fields(body: dict[str, Any]) -> set[str]:
    """Top-level field names of an error (``status[0]`` names item 0 of ``status``)."""
    return {name.split(".")[0].split("[")[0] for name in body["fields"]}


def _error(response: Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()["error"]
    assert body["code"] == code
    return body


# --- auth --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "allowed"), [
    ("/api/projects/", {"GET"}),
    ("/api/projects/1/", {"GET"}),
    ("/api/tasks/", {"GET", "POST"}),
    ("/api/tasks/1/", {"GET", "PATCH", "DELETE"}),
])
def test_anonymous_requests_get_401_with_a_code(url: str, allowed: set[str], client_for: Any) -> None:
    response = client_for(None).get(url)
    _error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert set(response["Allow"].replace(" ", "").split(",")) - {"HEAD", "OPTIONS"} == allowed


RUN = "00000000-0000-0000-0000-000000000000"


@pytest.mark.parametrize(("method", "url"), [
    ("get", "/api/projects/"), ("get", "/api/tasks/"), ("post", "/api/tasks/"),
    ("post", "/api/assistant/requests/"), ("get", f"/api/assistant/runs/{RUN}/"),
    ("post", f"/api/assistant/runs/{RUN}/confirm/"), ("get", f"/api/assistant/runs/{RUN}/trace/"),
])
def test_every_api_answers_anonymous_callers_with_the_same_401(method: str, url: str, client_for: Any) -> None:
    """The task API and the assistant API share one base class: one status, one body, one header."""
    response = getattr(client_for(None), method)(url, {}, format="json")
    body = _error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert body == _error(client_for(None).get("/api/projects/"), 401, "not_authenticated")


def test_anonymous_writes_are_refused_before_anything_is_written(client_for: Any, website: Project) -> None:
    client = client_for(None)
    _error(client.post("/api/tasks/", {"project": website.pk, "title": "T"}, format="json"), 401, "not_authenticated")
    assert not Task.objects.exists()


def test_bad_token_is_refused(client_for: Any) -> None:
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    _error(client.get("/api/tasks/"), 401, "authentication_failed")


def test_token_from_drf_create_token_authenticates(alice: User, tasks: dict[str, Task]) -> None:
    out = StringIO()
    call_command("drf_create_token", "alice", stdout=out)
    assert Token.objects.get(user=alice).key in out.getvalue()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=alice).key}")
    assert "Design the homepage" in _titles(client.get("/api/tasks/"))


def test_session_login_authenticates(alice: User, tasks: dict[str, Task]) -> None:
    client = APIClient()
    assert client.login(username="alice", password="demo")
    assert client.get("/api/projects/").status_code == 200


# --- projects ----------------------------------------------------------------------------------

def test_project_list_only_shows_memberships(client_for: Any, alice: User, website: Project, mobile: Project,
                                             platform: Project) -> None:
    response = client_for(alice).get("/api/projects/")
    assert [p["key"] for p in response.json()] == ["MOB", "WEB"]


def test_project_detail_lists_members_and_my_role(client_for: Any, dave: User, website: Project) -> None:
    body = client_for(dave).get(f"/api/projects/{website.pk}/").json()
    assert body["key"] == "WEB" and body["role"] == "viewer" and body["owner"]["username"] == "alice"
    assert [(m["user"]["username"], m["role"]) for m in body["members"]] == [
        ("alice", "owner"), ("carol", "member"), ("dave", "viewer")
    ]


def test_project_of_others_is_404(client_for: Any, alice: User, platform: Project) -> None:
    body = _error(client_for(alice).get(f"/api/projects/{platform.pk}/"), 404, "not_found")
    assert "project" in body["fields"]
    _error(client_for(alice).get("/api/projects/999999/"), 404, "not_found")


# --- list, filters, search ---------------------------------------------------------------------

def test_list_is_scoped_to_my_projects(client_for: Any, alice: User, platform: Project,
                                       tasks: dict[str, Task]) -> None:
    titles = _titles(client_for(alice).get("/api/tasks/", {"page_size": 100}))
    assert len(titles) == 6 and "Orders pipeline homepage metrics" not in titles
    assert _titles(client_for(alice).get("/api/tasks/", {"project": platform.pk})) == []


@pytest.mark.parametrize(("params", "expected"), [
    ({"status": "blocked"}, ["Accessibility audit"]),
    # archcheck: allow ARCH005 a sample query
    ({"status": "blocked,done"}, ["Fix footer links", "Accessibility audit"]),
    # archcheck: allow ARCH005 a sample query
    ({"priority": ["P0", "P3"]}, ["Fix footer links", "Accessibility audit"]),
    ({"assignee": "me"}, ["Design the homepage", "Offline mode"]),
    ({"labels": "design"}, ["Design the homepage", "Accessibility audit"]),
    ({"due_after": "2026-03-05", "due_before": "2026-03-31"}, ["Write pricing copy", "Accessibility audit"]),
    ({"search": "HOMEPAGE"}, ["Design the homepage"]),
    ({"search": "navigation"}, ["Design the homepage"]),
])
def test_filters(client_for: Any, alice: User, tasks: dict[str, Task], params: dict[str, Any],
                 expected: list[str]) -> None:
    assert _titles(client_for(alice).get("/api/tasks/", params)) == expected


def test_filter_by_project_and_assignee_id(client_for: Any, alice: User, carol: User, mobile: Project,
                                           tasks: dict[str, Task]) -> None:
    assert _titles(client_for(alice).get("/api/tasks/", {"project": mobile.pk})) == ["Offline mode"]
    assert _titles(client_for(alice).get("/api/tasks/", {"assignee": carol.pk})) == ["Write pricing copy"]


def test_list_item_shape(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    item = client_for(alice).get("/api/tasks/", {"search": "Accessibility"}).json()["results"][0]
    assert item["project"]["key"] == "WEB" and item["labels"] == ["accessibility", "design"]
    assert (item["status"], item["priority"], item["assignee"], item["due_date"]) == (
        "blocked", "P0", None, "2026-03-20")


@pytest.mark.parametrize(("params", "field"), [
    ({"status": "finished"}, "status"),
    ({"priority": "urgent"}, "priority"),
    ({"due_before": "2026-13-01"}, "due_before"),
    ({"due_after": "yesterday"}, "due_after"),
    ({"assignee": "someone"}, "assignee"),
    ({"project": "web"}, "project"),
    ({"search": "x" * 201}, "search"),
    ({"stauts": "done"}, "stauts"),
])
def test_bad_query_parameters_name_the_field(client_for: Any, alice: User, tasks: dict[str, Task],
                                             params: dict[str, Any], field: str) -> None:
    body = _error(client_for(alice).get("/api/tasks/", params), 400, "invalid")
    assert field in _fields(body) and body["message"].startswith(field)


# --- pagination --------------------------------------------------------------------------------

def test_pagination_pages_through_the_list(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    client = client_for(alice)
    first = client.get("/api/tasks/", {"page_size": 4}).json()
    assert first["count"] == 6 and len(first["results"]) == 4 and first["previous"] is None
    assert "cursor=" in first["next"] and "page_size=4" in first["next"] and first["last"]
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 2 and second["next"] is None and second["last"] is None
    assert client.get(first["last"]).json()["results"] == second["results"]
    by_number = client.get("/api/tasks/", {"page_size": 4, "page": 2}).json()
    assert by_number["results"] == second["results"]
    seen = [t["id"] for t in first["results"] + second["results"]]
    assert len(set(seen)) == 6


@pytest.mark.parametrize(("params", "field"), [
    ({"page_size": 1000}, "page_size"),
    ({"page_size": 0}, "page_size"),
    ({"page": 0}, "page"),
    ({"page": "abc"}, "page"),
    ({"page": "last"}, "page"),
    ({"page": 11}, "page"),
    ({"cursor": "not-a-cursor"}, "cursor"),
    ({"cursor": "YXwyMDI2LTEzLTAxfDV8MA"}, "cursor"),
    ({"cursor": "x" * 101}, "cursor"),
    ({"cursor": "bHx8fDA", "page": 2}, "cursor"),
])
def test_bad_page_parameters_are_400(client_for: Any, alice: User, tasks: dict[str, Task], params: dict[str, Any],
                                     field: str) -> None:
    body = _error(client_for(alice).get("/api/tasks/", params), 400, "invalid")
    assert list(body["fields"]) == [field]


@pytest.mark.parametrize(("params", "field"), [
    ({"project": 2**63}, "project"),
    ({"project": "66963150118696353792"}, "project"),
    ({"assignee": 2**63}, "assignee"),
    ({"project": "66963150118696353792", "labels": "x", "search": "y", "page": -5}, "project"),
    ({"page": -5, "search": "y"}, "page"),
])
def test_ids_past_the_databases_integers_are_400_naming_the_field(client_for: Any, alice: User,
                                                                  tasks: dict[str, Task], params: dict[str, Any],
                                                                  field: str) -> None:
    """Not a database overflow (a 500): the filters and the page are checked before anything is read."""
    body = _error(client_for(alice).get("/api/tasks/", params), 400, "invalid")
    assert field in body["fields"]
    client = Client()
    client.force_login(alice)
    page = client.get("/tasks/", params)
    assert page.status_code == 400 and field in page.content.decode()  # the list, saying what is wrong


def test_page_past_the_end_is_a_clean_404(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    body = _error(client_for(alice).get("/api/tasks/", {"page": 9}), 404, "not_found")
    assert "page" in body["fields"]


# --- detail ------------------------------------------------------------------------------------

def test_detail_includes_subtasks(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    body = client_for(alice).get(f"/api/tasks/{tasks['homepage'].pk}/").json()
    assert body["title"] == "Design the homepage" and body["assignee"]["username"] == "alice"
    assert [s["title"] for s in body["subtasks"]] == ["Wireframes"]
    child = client_for(alice).get(f"/api/tasks/{tasks['wireframes'].pk}/").json()
    assert child["parent"] == tasks["homepage"].pk


def test_detail_of_a_task_in_another_project_is_404(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    missing = _error(client_for(alice).get("/api/tasks/999999/"), 404, "not_found")
    hidden = _error(client_for(alice).get(f"/api/tasks/{tasks['data'].pk}/"), 404, "not_found")
    assert hidden["fields"].keys() == missing["fields"].keys()  # no hint that it exists


# --- create ------------------------------------------------------------------------------------

def test_create_task(client_for: Any, alice: User, carol: User, website: Project) -> None:
    payload = {"project": website.pk, "title": "Build the blog index", "status": "in_progress", "priority": "P1",
               "assignee": carol.pk, "labels": ["frontend"], "start_date": "2026-03-01", "due_date": "2026-03-15",
               "estimate_hours": 6.5, "progress": 20}
    response = client_for(alice).post("/api/tasks/", payload, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["assignee"]["username"] == "carol" and body["labels"] == ["frontend"]
    assert body["estimate_hours"] == 6.5 and body["progress"] == 20
    task = Task.objects.get(pk=body["id"])
    assert task.created_by == alice and task.project == website
    assert TaskActivity.objects.filter(task=task, kind="created").count() == 1


def test_create_subtask(client_for: Any, alice: User, tasks: dict[str, Task], website: Project) -> None:
    response = client_for(alice).post("/api/tasks/", {"project": website.pk, "title": "Hero copy",
                                                      "parent": tasks["homepage"].pk}, format="json")
    assert response.status_code == 201 and response.json()["parent"] == tasks["homepage"].pk


@pytest.mark.parametrize(("change", "field"), [
    ({"status": "finished"}, "status"),
    ({"priority": "P7"}, "priority"),
    ({"due_date": "2026-02-30"}, "due_date"),
    ({"start_date": "2026-03-10", "due_date": "2026-03-01"}, "due_date"),
    ({"progress": 101}, "progress"),
    ({"estimate_hours": -1}, "estimate_hours"),
    ({"title": ""}, "title"),
    ({"title": "x" * 301}, "title"),
    ({"labels": "design"}, "labels"),
    ({"bogus": 1}, "bogus"),
    ({"id": 5}, "id"),
])
def test_create_rejects_bad_input_naming_the_field(client_for: Any, alice: User, website: Project,
                                                   change: dict[str, Any], field: str) -> None:
    payload = {"project": website.pk, "title": "Valid title", **change}
    body = _error(client_for(alice).post("/api/tasks/", payload, format="json"), 400, "invalid")
    assert field in _fields(body) and field in body["message"]
    assert not Task.objects.exists() and not TaskActivity.objects.exists()


def test_create_requires_project_and_title(client_for: Any, alice: User) -> None:
    body = _error(client_for(alice).post("/api/tasks/", {}, format="json"), 400, "invalid")
    assert set(body["fields"]) == {"project", "title"}


def test_create_with_references_the_user_may_not_use(client_for: Any, alice: User, bob: User, website: Project,
                                                     tasks: dict[str, Task]) -> None:
    client, before = client_for(alice), Task.objects.count()
    cases = [
        ({"assignee": bob.pk}, "assignee"),  # not a member of the website project
        ({"assignee": 999999}, "assignee"),
        ({"parent": tasks["mobile"].pk}, "parent"),  # visible, but another project
        ({"parent": tasks["data"].pk}, "parent"),  # invisible
    ]
    for change, field in cases:
        body = _error(client.post("/api/tasks/", {"project": website.pk, "title": "T", **change}, format="json"),
                      400, "invalid")
        assert list(body["fields"]) == [field], change
    assert Task.objects.count() == before


def test_create_in_a_project_of_others_is_404(client_for: Any, alice: User, platform: Project) -> None:
    body = _error(client_for(alice).post("/api/tasks/", {"project": platform.pk, "title": "T"}, format="json"),
                  404, "not_found")
    assert "project" in body["fields"]
    assert not Task.objects.exists()


def test_viewer_cannot_create(client_for: Any, dave: User, website: Project) -> None:
    _error(client_for(dave).post("/api/tasks/", {"project": website.pk, "title": "T"}, format="json"),
           403, "forbidden")
    assert not Task.objects.exists() and not TaskActivity.objects.exists()


def test_malformed_json_is_400(client_for: Any, alice: User) -> None:
    response = client_for(alice).post("/api/tasks/", "{not json", content_type="application/json")
    _error(response, 400, "malformed_request")


@pytest.mark.parametrize("body", [
    '{"project": %d, "title": "T", "status": "\\ud800"}', '{"project": %d, "title": "\\udfff"}',
    '{"project": %d, "title": "T", "\\ud800": 1}', '{"project": %d, "title": "T", "labels": ["a", "\\udbff"]}',
])
def test_a_lone_surrogate_is_a_400_naming_the_body(client_for: Any, alice: User, website: Project, body: str) -> None:
    # JSON allows the escape; no text holds it, so it could not be stored or echoed back in an error.
    response = client_for(alice).post("/api/tasks/", body.replace("%d", str(website.pk)),
                                      content_type="application/json")
    error = _error(response, 400, "malformed_request")
    assert "surrogate" in error["message"]
    assert not Task.objects.exists()


def test_a_surrogate_pair_is_the_character_it_encodes(client_for: Any, alice: User, website: Project) -> None:
    body = '{"project": ' + str(website.pk) + ', "title": "Ship \\ud83d\\ude80"}'
    response = client_for(alice).post("/api/tasks/", body, content_type="application/json")
    assert response.status_code == 201, response.content
    assert Task.objects.get().title == "Ship \U0001f680"


# --- update ------------------------------------------------------------------------------------

def test_patch_changes_only_the_given_fields(client_for: Any, alice: User, carol: User,
                                             tasks: dict[str, Task]) -> None:
    task = tasks["pricing"]
    response = client_for(alice).patch(f"/api/tasks/{task.pk}/", {"status": "done", "assignee": None},
                                       format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["progress"], body["assignee"]) == ("done", 100, None)
    assert body["title"] == "Write pricing copy" and body["completed_at"]
    kinds = set(TaskActivity.objects.filter(task=task).values_list("kind", flat=True))
    assert kinds == {"created", "status", "assigned", "progress"}


@pytest.mark.parametrize(("change", "field"), [
    ({"progress": 150}, "progress"),
    ({"status": "archived"}, "status"),
    ({"project": 1}, "project"),
    ({"due_date": "not a date"}, "due_date"),
    ({"start_date": "2026-04-01"}, "due_date"),  # after the stored due date
    ({"title": None}, "title"),
])
def test_patch_rejects_bad_input_and_writes_nothing(client_for: Any, alice: User, tasks: dict[str, Task],
                                                    change: dict[str, Any], field: str) -> None:
    task, history = tasks["pricing"], TaskActivity.objects.count()
    body = _error(client_for(alice).patch(f"/api/tasks/{task.pk}/", change, format="json"), 400, "invalid")
    assert field in _fields(body)
    refreshed = Task.objects.get(pk=task.pk)
    assert (refreshed.status, refreshed.progress, refreshed.start_date) == (task.status, task.progress, None)
    assert TaskActivity.objects.count() == history


def test_viewer_patch_and_delete_are_403_and_write_nothing(client_for: Any, dave: User,
                                                          tasks: dict[str, Task]) -> None:
    task, history = tasks["homepage"], TaskActivity.objects.count()
    body = _error(client_for(dave).patch(f"/api/tasks/{task.pk}/", {"title": "Mine now"}, format="json"),
                  403, "forbidden")
    assert body["message"]
    _error(client_for(dave).delete(f"/api/tasks/{task.pk}/"), 403, "forbidden")
    assert Task.objects.get(pk=task.pk).title == "Design the homepage"
    assert TaskActivity.objects.count() == history


def test_non_member_patch_and_delete_are_404(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    task = tasks["data"]
    _error(client_for(alice).patch(f"/api/tasks/{task.pk}/", {"title": "x"}, format="json"), 404, "not_found")
    _error(client_for(alice).delete(f"/api/tasks/{task.pk}/"), 404, "not_found")
    assert Task.objects.get(pk=task.pk).title == "Orders pipeline homepage metrics"


def test_unsupported_method_is_405_in_the_error_shape(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    response = client_for(alice).put(f"/api/tasks/{tasks['homepage'].pk}/", {"title": "x"}, format="json")
    _error(response, 405, "method_not_allowed")
    assert set(response["Allow"].replace(" ", "").split(",")) >= {"GET", "PATCH", "DELETE"}


# --- delete ------------------------------------------------------------------------------------

def test_delete_removes_the_task_and_its_subtasks(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    task = tasks["homepage"]
    response = client_for(alice).delete(f"/api/tasks/{task.pk}/")
    assert response.status_code == 200
    assert response.json() == {"id": task.pk, "title": "Design the homepage", "subtasks_deleted": 1}
    assert not Task.objects.filter(pk__in=[task.pk, tasks["wireframes"].pk]).exists()
    _error(client_for(alice).get(f"/api/tasks/{task.pk}/"), 404, "not_found")


# --- schema ------------------------------------------------------------------------------------

def test_schema_generates_without_warnings(tmp_path: Path) -> None:
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(target))
    schema = target.read_text()
    for operation in ("projects_list", "projects_retrieve", "tasks_list", "tasks_create", "tasks_retrieve",
                      "tasks_partial_update", "tasks_destroy"):
        assert f"operationId: {operation}" in schema


@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/"])
@pytest.mark.parametrize("method", ["options", "post", "put", "delete"])
def test_the_schema_and_docs_answer_only_reads(client_for: Any, alice: User, path: str, method: str) -> None:
    client = client_for(alice)
    assert getattr(client, method)(path).status_code == 405
    assert client.head(path).status_code == 200


def test_schema_and_docs_are_served(client_for: Any, alice: User) -> None:
    assert client_for(alice).get("/api/schema/").status_code == 200
    docs = client_for(alice).get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html  # served locally, works offline
    # Every script and stylesheet comes from this server: relative URLs, no other host (a random CSP
    # nonce may spell "cdn", so the page's text as a whole proves nothing).
    urls = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]*)"', html) + \
        re.findall(r'\b(?:src|href)\s*[:=]\s*["\']((?:https?:)?//[^"\']+)', html)
    assert urls and all(not re.match(r"(?:https?:)?//", url) for url in urls), urls


def test_list_queries_do_not_grow_with_the_page(client_for: Any, alice: User, website: Project,
                                                django_assert_max_num_queries: Any) -> None:
    for n in range(30):
        task_create(actor=alice, project=website, title=f"Task {n}", assignee=alice, labels=["a", "b"])
    client = client_for(alice)
    with django_assert_max_num_queries(4):  # count, page, labels of the page, and nothing per row
        assert len(client.get("/api/tasks/", {"page_size": 30}).json()["results"]) == 30


@pytest.mark.parametrize("path", ["/api/tasks/abc/", "/api/projects/1.5/", "/api/assistant/runs/not-a-uuid/",
                                  "/api/nothing-here/"])
def test_an_unmatched_api_path_is_a_json_404(client_for: Any, alice: User, path: str) -> None:
    response = client_for(alice).get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": {"code": "not_found", "message": "Not found.", "fields": {}}}


def test_an_unmatched_page_is_still_an_html_404(client_for: Any, alice: User) -> None:
    response = client_for(alice).get("/tasks/abc/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]


def test_empty_due_dates_mean_no_filter(client_for: Any, alice: User, tasks: dict[str, Task]) -> None:
    client = client_for(alice)
    everything = _titles(client.get("/api/tasks/"))
    assert _titles(client.get("/api/tasks/", {"due_before": "", "due_after": ""})) == everything
    assert _titles(client.get("/api/tasks/", {"due_before": "2026-03-05"})) != everything
    bad = client.get("/api/tasks/", {"due_before": "soon"})
    assert bad.status_code == 400 and "due_before" in bad.json()["error"]["fields"]


def test_the_schema_requires_login_when_configured(client_for: Any, alice: User, settings: Any) -> None:
    settings.API_SCHEMA_REQUIRES_LOGIN = False
    assert client_for(None).get("/api/schema/").status_code == 200
    settings.API_SCHEMA_REQUIRES_LOGIN = True
    for path in ("/api/schema/", "/api/docs/"):
        assert client_for(None).get(path).status_code in (401, 403)
    assert client_for(alice).get("/api/schema/").status_code == 200


def test_schema_lists_the_assistant_error_answers(tmp_path: Path) -> None:
    import yaml

    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    paths = yaml.safe_load(target.read_text())["paths"]
    assert {"400", "404", "409"} <= set(paths["/api/assistant/runs/{run_id}/confirm/"]["post"]["responses"])
    assert {"400", "413"} <= set(paths["/api/assistant/requests/"]["post"]["responses"])
    assert "404" in paths["/api/assistant/runs/{run_id}/"]["get"]["responses"]
    due = [p for p in paths["/api/tasks/"]["get"]["parameters"] if p["name"] == "due_before"]
    assert "empty means no filter" in due[0]["description"]
    assert {"403", "413", "415"} <= set(paths["/api/assistant/runs/{run_id}/undo/"]["post"]["responses"])


def test_schema_describes_the_page_context_and_the_run(tmp_path: Path) -> None:
    import yaml

    from agent.models import Run
    from agent.registry import CAPABILITIES
    from pm_assistant.vocabulary import PAGES

    target = tmp_path / "schema.yml"
    call_command("spectacular", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    components = schema["components"]["schemas"]
    body = components["RunRequestInputRequest"]["properties"]["page_context"]
    assert body["additionalProperties"] is False and body["required"] == ["page", "origin"]
    assert body["properties"]["page"]["enum"] == list(PAGES)
    assert body["properties"]["visibleEntityIds"]["maxItems"] == 500
    assert body["properties"]["selectedEntity"]["nullable"] is True  # OpenAPI 3.0, not JSON Schema's null
    assert "$ref" not in str(body) and "const" not in body["properties"]["filters"]["properties"]["assignee"]
    # OpenAPI 3.0 reads nullable only beside a type: each option of a nullable union says it.
    assignee = body["properties"]["filters"]["properties"]["assignee"]
    assert [(o["type"], o["nullable"]) for o in assignee["anyOf"]] == [("integer", True), ("string", True)]
    assert assignee["anyOf"][1]["enum"] == ["me", "none", None]
    run = components["AssistantRun"]["properties"]

    def enum(name: str) -> list[str]:
        return components[run[name]["$ref"].rsplit("/", 1)[-1]]["enum"] if "$ref" in run[name] else run[name]["enum"]

    assert set(enum("status")) == set(Run.Status.values)
    route = components["AssistantRoute"]["properties"]
    assert set(components[route["capability"]["$ref"].rsplit("/", 1)[-1]]["enum"]) == {c.name for c in CAPABILITIES}
    assert set(components["AssistantConfirmation"]["properties"]) == {"id", "action", "facts", "steps"}


@pytest.mark.parametrize("debug", [False, True])
def test_an_api_path_no_route_matches_is_a_json_404_even_in_debug(client_for: Any, alice: User, settings: Any,
                                                                   debug: bool) -> None:
    settings.DEBUG = debug
    for path in ("/api/tasks/abc/", "/api/nothing-here/", "/api/assistant/runs/not-a-uuid/x/"):
        response = client_for(alice).get(path)
        assert response.status_code == 404 and response["Content-Type"] == "application/json", path
        assert response.json()["error"]["code"] == "not_found"


def test_an_error_in_a_list_item_is_named_with_its_index(client_for: Any, alice: User,
                                                         tasks: dict[str, Task]) -> None:
    task = next(iter(tasks.values()))
    body = _error(client_for(alice).patch(f"/api/tasks/{task.pk}/", {"labels": ["ok", "x" * 41]}, format="json"),
                  400, "invalid")
    assert list(body["fields"]) == ["labels[1]"]
    body = _error(client_for(alice).get("/api/tasks/", {"status": "bogus"}), 400, "invalid")
    assert list(body["fields"]) == ["status[0]"]


def test_a_write_to_an_unknown_api_path_is_a_json_404_and_a_missing_slash_redirects(alice: User) -> None:
    from django.test import Client

    session = Client(enforce_csrf_checks=True)
    session.force_login(alice)
    response = session.post("/api/nothing-here/", {"a": 1})
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert session.get("/api/tasks").status_code == 301
