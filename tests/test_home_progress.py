"""Home counts the progress of the projects it shows, and only theirs, from the task counters; the project
list and a project page read the user's roles in one statement, however many projects there are."""
from __future__ import annotations

import re
from typing import Any

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
    # One read of the counters the database keeps with the tasks (tasks.models.TaskCount), limited to
    # the shown projects' ids; no statement aggregates the tasks themselves.
    aggregate = [q["sql"] for q in captured.captured_queries if '"tasks_taskcount"' in q["sql"]]
    assert len(aggregate) == 1
    listed = re.search(r'"tasks_taskcount"\."project_id" IN \(([^)]*)\)', aggregate[0])
    assert listed and len(listed.group(1).split(",")) == HOME_PROJECTS_MAX
    assert not [q for q in captured.captured_queries if "COUNT(" in q["sql"] and "parent_id" in q["sql"]]


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


def test_home_counts_stop_past_the_cap_and_read_at_most_cap_plus_one_rows(alice: User, website: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tasks.models import Task
    from tasks.selectors import workbench_for_user
    from tasks.templatetags.task_ui import count_shown

    past = timezone.localdate() - timedelta(days=2)
    Task.objects.bulk_create(Task(project=website, title=f"Late {i}", assignee=alice, due_date=past,
                                  status="blocked" if i < 2 else "todo") for i in range(6))
    exact = workbench_for_user(user=alice, cap=10)["counts"]
    assert (exact["open"], exact["overdue"], exact["blocked"], exact["due_week"]) == (6, 6, 2, 0)
    with CaptureQueriesContext(connection) as captured:
        capped = workbench_for_user(user=alice, cap=3)["counts"]
    assert (capped["open"], capped["overdue"], capped["blocked"]) == (4, 4, 2)
    assert [count_shown(capped[name], 3) for name in ("open", "overdue", "blocked")] == ["3+", "3+", "2"]
    counts = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"]]
    # The four counts are one statement, each of its subqueries stopping after cap + 1 rows.
    assert len(counts) == 1 and counts[0].count("COUNT(") == 4 and counts[0].count("LIMIT 4") == 4, counts


def test_home_shows_a_capped_count_with_a_plus(alice: User, website: Any, monkeypatch: Any) -> None:
    from django.utils import timezone

    from tasks import selectors
    from tasks.models import Task

    monkeypatch.setattr(selectors, "COUNT_SHOWN_MAX", 2)
    Task.objects.bulk_create(Task(project=website, title=f"Mine {i}", assignee=alice,
                                  due_date=timezone.localdate()) for i in range(3))
    client = Client()
    client.force_login(alice)
    text = client.get("/").content.decode()
    assert "2+ open tasks assigned to you" in text
    assert re.search(r'<span class="stat-num">2\+</span><span class="stat-label">Open</span>', text)


def test_the_project_list_costs_the_same_statements_for_two_projects_or_eight_and_shows_each_role(
        alice: User, bob: User) -> None:
    from projects.models import Membership

    client = Client()
    client.force_login(alice)
    for i in range(2):
        project_create(owner=alice, name=f"Mine {i}", key=f"MINE{i}")
    client.get("/projects/")
    with CaptureQueriesContext(connection) as two:
        client.get("/projects/")
    for i in range(6):
        theirs = project_create(owner=bob, name=f"Theirs {i}", key=f"THR{i}")
        Membership.objects.create(user=alice, project=theirs, role="viewer" if i % 2 else "member")
    with CaptureQueriesContext(connection) as eight:
        text = client.get("/projects/").content.decode()
    assert len(two) == len(eight), "\n".join(q["sql"] for q in eight.captured_queries)
    cards = re.findall(r'<li class="panel project-card".*?</li>', text, re.S)
    roles = {name: re.findall(r'class="badge badge-muted">(\w+)<', card)
             for card in cards for name in re.findall(r"(Mine \d|Theirs \d)", card)}
    assert len(roles) == 8
    assert roles["Mine 0"] == ["Owner"] and roles["Theirs 0"] == ["Member"] and roles["Theirs 1"] == ["Viewer"]


def test_a_project_page_reads_the_users_role_once(alice: User, website: Any) -> None:
    client = Client()
    client.force_login(alice)
    client.get(f"/projects/{website.pk}/")
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/projects/{website.pk}/").status_code == 200
    roles = [q["sql"] for q in captured.captured_queries
             if '"projects_membership"."role"' in q["sql"] and "auth_user" not in q["sql"]]
    assert len(roles) == 1, roles
