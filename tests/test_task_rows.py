"""A task table's rows, built by tasks.bits: escaping, the buttons a row shows, overdue marks, the links."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from agent.routing.quick_actions import quick_actions_for
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.page_html import client_for, tags

HOSTILE = """<img src=x onerror=alert(1)> "quoted" & 'single' {{ page_context }}"""


def _row(html: str, task: Task) -> str:
    """The HTML of one task's table row."""
    start = html.index('<tr class="task-row')
    start = html.index(f'data-entity-id="{task.pk}"', start)
    return html[start:html.index("</tr>", start)]


def _row_tags(html: str, task: Task) -> list[tuple[str, dict[str, str | None]]]:
    """The tags inside one task's table row."""
    return tags(_row(html, task).partition(">")[2])


def _buttons(html: str, task: Task) -> dict[str, str | None]:
    """The row's assistant buttons: action → accessible name."""
    return {a["data-assistant-action"] or "": a.get("aria-label")
            for tag, a in _row_tags(html, task) if tag == "button"}


@pytest.fixture
def hostile(website: Project, alice: User) -> Task:
    return task_create(actor=alice, project=website, title=HOSTILE, assignee=alice)


def test_a_hostile_title_is_text_in_the_link_and_in_every_button_name(alice: User, hostile: Task) -> None:
    html = client_for(alice).get(reverse("task-list")).content.decode()
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    names = _buttons(html, hostile)
    assert names == {entry.action: entry.name_for(HOSTILE) for entry in quick_actions_for("task_list", rows=True)}
    assert names["mark_done"] == f"Mark '{HOSTILE}' done"
    # The title's quotes are escaped inside the attribute: no attribute of the row comes from the title.
    for _, attrs in _row_tags(html, hostile):
        assert not {"src", "onerror", "single'", '"quoted"'} & attrs.keys()
    # The title is data, never template source: the braces reach the page as typed.
    assert "{{ page_context }}" in html


def test_a_done_row_has_no_done_button_and_a_viewer_has_none(website: Project, alice: User, dave: User) -> None:
    done = task_create(actor=alice, project=website, title="Shipped", status=Task.Status.DONE)
    todo = task_create(actor=alice, project=website, title="Open")
    html = client_for(alice).get(reverse("task-list")).content.decode()
    assert set(_buttons(html, done)) == {"delete_task"}  # nothing left to mark done or break down
    assert set(_buttons(html, todo)) == {"mark_done", "decompose_task", "delete_task"}
    delete = next(a for tag, a in _row_tags(html, todo)
                  if tag == "button" and a["data-assistant-action"] == "delete_task")
    assert "chip-danger" in (delete["class"] or "") and delete["title"] == "Delete (asks first)"
    assert delete["hx-post"] == reverse("assistant-sidebar-request")
    assert delete["hx-vals"] == '{"action": "delete_task"}'
    # dave views the project: the rows are listed, without a button.
    viewer = client_for(dave).get(reverse("task-list")).content.decode()
    assert _buttons(viewer, todo) == {} and _buttons(viewer, done) == {}


def test_only_an_open_task_past_its_due_date_is_marked_overdue(website: Project, alice: User) -> None:
    yesterday = timezone.localdate() - timedelta(days=1)
    late = task_create(actor=alice, project=website, title="Late", due_date=yesterday)
    task_create(actor=alice, project=website, title="Late but done", due_date=yesterday, status=Task.Status.DONE)
    html = client_for(alice).get(reverse("task-list")).content.decode()
    rows = {a["data-entity-id"]: a["class"] for tag, a in tags(html) if tag == "tr" and a.get("data-entity-id")}
    assert [pk for pk, css in rows.items() if "is-overdue" in (css or "")] == [str(late.pk)]
    due = next(a for tag, a in _row_tags(html, late) if tag == "time")
    assert due == {"datetime": yesterday.isoformat(), "class": "due overdue", "title": "Overdue"}


def test_a_row_links_its_task_and_project_and_shows_its_people(website: Project, alice: User, carol: User) -> None:
    carol.first_name, carol.last_name = "Carol", "Nguyen"
    carol.save()
    task = task_create(actor=alice, project=website, title="Linked", assignee=carol, priority=Task.Priority.P0,
                       progress=40)
    unassigned = task_create(actor=alice, project=website, title="Nobody's")
    html = client_for(alice).get(reverse("project-detail", args=[website.pk]) + "?tab=tasks").content.decode()
    links = [a["href"] for tag, a in _row_tags(html, task) if tag == "a"]
    assert links == [reverse("task-detail", args=[task.pk]), reverse("project-detail", args=[website.pk])]
    row = _row(html, task)
    assert '<span class="avatar avatar-sm" aria-hidden="true">CN</span>Carol Nguyen' in row
    assert 'title="P0 · Critical">P0</span>' in row and 'style="width: 40%"' in row
    assert '<span class="muted">—</span>' in row  # no due date
    assert '<span class="muted">Unassigned</span>' in _row(html, unassigned)
