"""Home counts the progress of the projects it shows, and only theirs."""
from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from pm_assistant.vocabulary import HOME_PROJECTS_MAX
from projects.selectors import project_progress_for_user
from projects.services import project_create
from tasks.services import task_create


def test_home_shows_and_counts_only_its_first_projects(alice: User) -> None:
    projects = [project_create(owner=alice, name=f"Project {i:02}", key=f"P{i:02}")
                for i in range(HOME_PROJECTS_MAX + 3)]
    for project in projects:
        task_create(actor=alice, project=project, title="Top", status="done")
        task_create(actor=alice, project=project, title="Blocked", status="blocked")
    client = Client()
    client.force_login(alice)
    with CaptureQueriesContext(connection) as captured:
        text = client.get("/").content.decode()
    shown = re.findall(r'data-section="projects".*?</section>', text, re.S)[0]
    assert len(re.findall(r'data-entity-type="project"', shown)) == HOME_PROJECTS_MAX
    assert "Project 00" in shown and f"Project {HOME_PROJECTS_MAX:02}" not in shown
    aggregate = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"] and "parent_id" in q["sql"]]
    assert len(aggregate) == 1
    # The count is limited to the shown projects' ids, not every project of the user.
    listed = re.search(r'"tasks_task"\."project_id" IN \(([^)]*)\)', aggregate[0])
    assert listed and len(listed.group(1).split(",")) == HOME_PROJECTS_MAX


def test_progress_counts_top_level_tasks_and_every_blocked_one(alice: User) -> None:
    project = project_create(owner=alice, name="Counted", key="CNT")
    parent = task_create(actor=alice, project=project, title="Parent", status="done")
    task_create(actor=alice, project=project, title="Child", status="blocked", parent=parent)
    task_create(actor=alice, project=project, title="Open")
    empty = project_create(owner=alice, name="Empty", key="EMP")
    rows = {row["project"].pk: row for row in project_progress_for_user(user=alice)}
    assert {k: rows[project.pk][k] for k in ("total", "done", "blocked", "percent")} == \
        {"total": 2, "done": 1, "blocked": 1, "percent": 50}
    assert rows[empty.pk]["total"] == 0 and rows[empty.pk]["percent"] == 0
