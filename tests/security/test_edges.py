"""Inputs at the edges of what a type can hold: answered with a 400 naming the field, never a 500."""
from __future__ import annotations

import base64
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from pm_assistant.vocabulary import DATE_MAX, DATE_MIN, ID_MAX
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tasks.timeline import timeline_for


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _page(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("field", ["start_date", "due_date"])
@pytest.mark.parametrize("day", ["0001-01-01", "1899-12-31", "3000-01-01", "9999-12-31"])
def test_a_task_date_off_the_calendar_we_draw_is_a_400_naming_it(alice: User, website: Project, field: str,
                                                                 day: str) -> None:
    task = task_create(actor=alice, project=website, title="Launch")
    response = _api(alice).patch(f"/api/tasks/{task.pk}/", {field: day}, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["error"]["fields"]
    assert str(DATE_MIN.year) in response.json()["error"]["message"]
    task.refresh_from_db()
    assert task.start_date is None and task.due_date is None
    created = _api(alice).post("/api/tasks/", {"project": website.pk, "title": "Old", field: day}, format="json")
    assert created.status_code == 400 and not Task.objects.filter(title="Old").exists()


def test_the_bounds_themselves_are_accepted(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Launch")
    response = _api(alice).patch(f"/api/tasks/{task.pk}/", {"start_date": DATE_MIN.isoformat(),
                                                            "due_date": DATE_MAX.isoformat()}, format="json")
    assert response.status_code == 200, response.content
    assert _page(alice).get(f"/projects/{website.pk}/?view=gantt").status_code == 200


def test_the_inline_date_editor_refuses_it_in_place_and_offers_only_the_range(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Launch")
    client = _page(alice)
    response = client.post(f"/tasks/{task.pk}/fields/due_date/", {"due_date": "0001-01-01"})
    assert response.status_code == 400
    assert f"between {DATE_MIN.isoformat()} and {DATE_MAX.isoformat()}" in response.content.decode()
    form = client.get(f"/tasks/new/?project={website.pk}").content.decode()
    assert f'min="{DATE_MIN.isoformat()}"' in form and f'max="{DATE_MAX.isoformat()}"' in form


def test_a_timeline_with_a_date_stored_before_the_bound_draws(alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ancient")
    Task.objects.filter(pk=task.pk).update(due_date=date(1, 1, 1), start_date=date(1, 1, 1))
    late = task_create(actor=alice, project=website, title="Far", due_date=DATE_MAX)
    Task.objects.filter(pk=late.pk).update(due_date=date(9999, 12, 31))
    timeline = timeline_for(tasks=list(Task.objects.filter(project=website)), today=date(2026, 12, 1))
    assert timeline.days > 0
    assert _page(alice).get(f"/projects/{website.pk}/?view=gantt").status_code == 200


@pytest.mark.parametrize("week", ["0001-W01", "9999-W52", "1899-W52", "3000-W01"])
def test_a_report_week_off_the_calendar_is_a_400(alice: User, website: Project, week: str) -> None:
    response = _page(alice).get(f"/reports/weekly/?week={week}")
    assert response.status_code == 400
    assert "week" in response.content.decode()


def test_the_assistant_answers_an_edge_week_without_a_500(alice: User, website: Project) -> None:
    response = _api(alice).post("/api/assistant/requests/", {
        "message": "weekly report 0001-W01", "page_context": {"page": "home", "origin": "sidebar"}}, format="json")
    assert response.status_code < 500, response.content


def _cursor(raw: str) -> str:
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


@pytest.mark.parametrize("task_id", [ID_MAX + 1, 10**20])
def test_a_cursor_naming_an_id_past_bigint_is_a_400(alice: User, website: Project, task_id: int) -> None:
    task_create(actor=alice, project=website, title="One")
    cursor = _cursor(f"a|2026-01-01|{task_id}|0")
    api = _api(alice).get(f"/api/tasks/?cursor={cursor}")
    assert api.status_code == 400 and "cursor" in api.json()["error"]["fields"]
    assert _page(alice).get(f"/tasks/?cursor={cursor}").status_code == 400
    assert _page(alice).get(f"/projects/{website.pk}/?cursor={cursor}").status_code == 400


@pytest.mark.parametrize("field", ["assignee", "parent", "project"])
@pytest.mark.parametrize("value", [ID_MAX + 1, 10**20])
def test_an_id_past_bigint_in_a_task_write_is_a_400_naming_it_and_nothing_is_written(
        alice: User, website: Project, field: str, value: int) -> None:
    task = task_create(actor=alice, project=website, title="Launch")
    client = _api(alice)
    created = client.post("/api/tasks/", {"project": website.pk, "title": "Sneaky", field: value}, format="json")
    assert created.status_code == 400 and field in created.json()["error"]["fields"], created.content
    assert not Task.objects.filter(title="Sneaky").exists()
    if field != "project":
        changed = client.patch(f"/api/tasks/{task.pk}/", {field: value, "title": "Changed"}, format="json")
        assert changed.status_code == 400 and field in changed.json()["error"]["fields"], changed.content
        task.refresh_from_db()
        assert task.title == "Launch"


@pytest.mark.parametrize("raw", ["²", "١٢", "1" * 5000, str(ID_MAX + 1), "-3", "1e3"])
def test_the_new_task_page_reads_only_plain_project_ids(alice: User, website: Project, raw: str) -> None:
    client = _page(alice)
    shown = client.get("/tasks/new/", {"project": raw})
    assert shown.status_code == 400 and "is not a project id" in shown.content.decode()
    sent = client.post("/tasks/new/", {"project": raw, "title": "Sneaky"})
    assert sent.status_code == 400 and not Task.objects.filter(title="Sneaky").exists()


def test_a_task_holding_a_date_stored_before_the_bound_can_still_be_changed_and_fixed(
        alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Old")
    Task.objects.filter(pk=task.pk).update(start_date=date(1850, 1, 1), due_date=date(1850, 2, 1))
    client = _api(alice)
    assert client.patch(f"/api/tasks/{task.pk}/", {"status": "done"}, format="json").status_code == 200
    assert client.patch(f"/api/tasks/{task.pk}/", {"due_date": "2026-12-24"}, format="json").status_code == 200
    assert client.patch(f"/api/tasks/{task.pk}/", {"start_date": "2026-12-01"}, format="json").status_code == 200
    task.refresh_from_db()
    assert (task.status, task.start_date, task.due_date) == ("done", date(2026, 12, 1), date(2026, 12, 24))


def test_a_title_that_writes_markdown_reads_as_written_in_the_risk_panel(alice: User, website: Project) -> None:
    from datetime import timedelta

    from django.utils import timezone

    title = "[Open](/tasks/1/) *now* & R&amp;D"
    task_create(actor=alice, project=website, title=title, status="blocked", assignee=alice,
                due_date=timezone.localdate() - timedelta(days=9))
    html = _page(alice).get(f"/projects/{website.pk}/reports/risk/", headers={"HX-Request": "true"}).content.decode()
    panel = html[html.index('<div class="risk-text">'):]
    panel = panel[:panel.index("</div>")]
    assert "[Open](/tasks/1/) *now* &amp; R&amp;amp;D" in panel and "<em>" not in panel and "<a " not in panel
