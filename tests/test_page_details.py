"""Page details: buttons only where they make sense, named rows, honest empty states, View all links."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from agent.routing.quick_actions import quick_actions_for
from projects.models import Project
from tasks.services import task_create
from tests.page_html import tags

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def actions(html: str, *, rows: bool) -> list[dict[str, Any]]:
    """The assistant buttons a page shows: the row buttons or the sidebar's (hidden ones left out)."""
    return [attrs for _, attrs in tags(html) if attrs.get("data-assistant-action") and "hidden" not in attrs
            and (attrs.get("data-origin") == "task_row") == rows]


def test_mark_done_is_not_offered_for_a_done_task(alice: User, website: Project) -> None:
    done = task_create(actor=alice, project=website, title="Shipped already", status="done")
    open_ = task_create(actor=alice, project=website, title="Still open")
    client = signed_in(alice)
    on_done = {a["data-assistant-action"] for a in actions(client.get(f"/tasks/{done.pk}/").content.decode(),
                                                             rows=False)}
    on_open = {a["data-assistant-action"] for a in actions(client.get(f"/tasks/{open_.pk}/").content.decode(),
                                                             rows=False)}
    # A done task has nothing left to mark done or break down; it may still be deleted.
    assert not {"mark_done", "decompose_task"} & on_done and "delete_task" in on_done
    assert "mark_done" in on_open
    rows = actions(client.get("/tasks/").content.decode(), rows=True)
    marked = {a["aria-label"] for a in rows if a["data-assistant-action"] == "mark_done"}
    assert marked == {"Mark 'Still open' done"}


def test_row_buttons_are_named_after_their_task(alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="Fix the footer")
    names = {a["aria-label"] for a in actions(signed_in(alice).get("/tasks/").content.decode(), rows=True)}
    assert names == {entry.name_for("Fix the footer") for entry in quick_actions_for("task_list", rows=True)}
    assert "Mark 'Fix the footer' done" in names
    project_names = {a["aria-label"] for a in actions(
        signed_in(alice).get(reverse("project-detail", args=[website.pk])).content.decode(), rows=True)}
    assert "Delete 'Fix the footer'" in project_names


def test_mark_visible_as_done_is_only_on_a_page_that_lists_tasks(alice: User, website: Project) -> None:
    client = signed_in(alice)
    on_list = {a["data-assistant-action"] for a in actions(client.get("/tasks/").content.decode(), rows=False)}
    on_new = {a["data-assistant-action"] for a in actions(client.get("/tasks/new/").content.decode(), rows=False)}
    assert "mark_visible_done" in on_list
    assert "mark_visible_done" not in on_new and "my_overdue" in on_new


def test_valid_filters_without_matches_say_so_and_offer_clearing(alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="Open work")
    client = signed_in(alice)
    html = client.get("/tasks/?status=done").content.decode()
    assert "No tasks match these filters." in html and "Fix the filters" not in html
    assert 'data-empty="no-matches"' in html and ">Clear filters</a>" in html
    invalid = client.get("/tasks/?status=finished")
    assert invalid.status_code == 400
    assert "Fix the filters above" in invalid.content.decode() and "No tasks match" not in invalid.content.decode()


def test_home_panels_link_to_their_filtered_task_lists(alice: User, website: Project) -> None:
    html = signed_in(alice).get("/").content.decode()
    links = {attrs.get("aria-label"): attrs.get("href") for tag, attrs in tags(html) if tag == "a"}
    assert "due_before=" in links["View all overdue tasks"]
    week = links["View all tasks due this week"]
    assert "due_after=" in week and "due_before=" in week
    assert "assignee=me" in links["View all my open tasks"]
    for label in ("View all overdue tasks", "View all tasks due this week", "View all my open tasks"):
        assert signed_in(alice).get(links[label]).status_code == 200


def test_the_risk_button_says_what_it_does(alice: User, website: Project) -> None:
    from agent.routing.quick_actions import QUICK_ACTIONS
    labels = {q.label for entries in QUICK_ACTIONS.values() for q in entries if q.action == "risk_analysis"}
    # The risk run scores every open task of the scope, not this week's only: no page promises "this week".
    assert labels == {"Tasks at risk"}


def test_the_activity_names_people_as_the_pages_do_with_one_lookup(alice: User, carol: User, dave: User,
                                                                   website: Project) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tasks.services import task_update

    carol.first_name, carol.last_name = "Carol", "Jones"
    carol.save()
    task = task_create(actor=alice, project=website, title="Hand over", assignee=alice)
    task_update(actor=alice, task=task, assignee=carol)
    task_update(actor=alice, task=task, assignee=None)
    client = Client()
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("task-detail", args=[task.pk])).content.decode()
    assert "changed assignee from alice to Carol Jones" in page  # no full name: the username
    assert "changed assignee from Carol Jones to none" in page
    assert len([q for q in queries.captured_queries if '"auth_user"."username" IN' in q["sql"]]) == 1


def test_a_due_date_reads_the_same_on_every_page_and_only_an_open_task_past_it_is_overdue(
        alice: User, website: Project) -> None:
    today = timezone.localdate()
    late = task_create(actor=alice, project=website, title="Late one", assignee=alice,
                       due_date=today - timedelta(days=3))
    done_late = task_create(actor=alice, project=website, title="Late but done", assignee=alice, status="done",
                            due_date=today - timedelta(days=4))
    ahead = task_create(actor=alice, project=website, title="Ahead", assignee=alice, due_date=today + timedelta(days=2))
    client = signed_in(alice)

    def due_tag(url: str, day: date) -> dict[str, Any]:
        """The page's <time> for this day: its attributes and the text it shows."""
        html = client.get(url).content.decode()
        found = [attrs for name, attrs in tags(html) if name == "time" and attrs["datetime"] == day.isoformat()]
        assert found, (url, day)
        shown = f'>{day.strftime("%b")} {day.day}, {day.year}</time>'
        return {**found[0], "text_shown": shown in html}

    project = reverse("project-detail", args=[website.pk])
    for url in ("/", "/tasks/", project, f"/tasks/{late.pk}/"):
        attrs = due_tag(url, late.due_date)
        assert attrs["class"].split() == ["due", "overdue"] and attrs["title"] == "Overdue", url
        assert attrs["text_shown"], url
    for url, task in (("/tasks/", done_late), (f"/tasks/{done_late.pk}/", done_late), ("/tasks/", ahead),
                      ("/", ahead), (project, ahead), (f"/tasks/{ahead.pk}/", ahead)):
        attrs = due_tag(url, task.due_date)
        assert attrs["class"] == "due" and "title" not in attrs and attrs["text_shown"], (url, task.title)
