"""The demo seed: idempotent, deterministic, scoped like the real data, with four weeks of history."""
from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Count, Max, Q
from django.utils import timezone

from pm_assistant.vocabulary import STATUSES
from projects.models import Membership, Project
from projects.selectors import project_list_for_user
from tasks.models import Label, Task, TaskActivity
from tasks.selectors import task_list_for_user

pytestmark = pytest.mark.django_db


def _seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def _counts() -> dict[str, int]:
    models: list[Any] = [User, Project, Membership, Label, Task, TaskActivity, Task.labels.through]
    return {model.__name__: model.objects.count() for model in models}


@pytest.fixture
def seeded() -> str:
    return _seed()


def test_seed_creates_the_demo_and_prints_the_login_hint(seeded: str) -> None:
    assert "Log in as alice / demo" in seeded
    assert set(User.objects.values_list("username", flat=True)) == {"alice", "bob", "carol"}
    assert User.objects.get(username="bob").check_password("demo")
    roles = set(Membership.objects.values_list("project__key", "user__username", "role"))
    assert roles == {("WEB", "alice", "owner"), ("WEB", "carol", "member"), ("MOB", "alice", "owner"),
                     ("DATA", "bob", "owner"), ("DATA", "carol", "member")}
    assert 270 <= Task.objects.count() <= 330


def test_seed_is_idempotent(seeded: str) -> None:
    before = _counts()
    _seed()
    assert _counts() == before


def test_seed_is_deterministic(seeded: str) -> None:
    def snapshot() -> list[tuple[Any, ...]]:
        return list(Task.objects.order_by("project__key", "id").values_list(
            "project__key", "title", "status", "priority", "assignee__username", "due_date", "progress",
            "parent__title"))
    first = snapshot()
    _seed("--reset")
    assert snapshot() == first


def test_alice_cannot_see_data_platform(seeded: str) -> None:
    alice = User.objects.get(username="alice")
    assert sorted(p.name for p in project_list_for_user(user=alice)) == ["Mobile App", "Website Redesign"]
    assert not task_list_for_user(user=alice).filter(project__key="DATA").exists()


def test_tasks_look_like_real_work(seeded: str) -> None:
    for project in Project.objects.all():
        tasks = Task.objects.filter(project=project)
        members = set(project.memberships.values_list("user_id", flat=True))
        assert set(tasks.exclude(assignee=None).values_list("assignee_id", flat=True)) <= members
        assert set(tasks.values_list("status", flat=True)) == set(STATUSES)
        assert tasks.values("title").distinct().count() > 40
        assert tasks.filter(parent__isnull=False).exists()
        assert not tasks.filter(parent__isnull=False).exclude(parent__project=project).exists()
        assert Task.labels.through.objects.filter(task__project=project).exists()
        assert tasks.exclude(estimate_hours=None).exists() and tasks.filter(progress__gt=0, progress__lt=100).exists()
    assert not Task.objects.filter(status="done").exclude(progress=100).exists()
    assert not Task.objects.filter(status="done", completed_at=None).exists()


def test_overdue_and_slipping_tasks_exist(seeded: str) -> None:
    today, now = timezone.localdate(), timezone.now()
    overdue = Task.objects.filter(due_date__lt=today).exclude(status="done")
    assert overdue.count() >= 15
    slipping = overdue.filter(progress__lt=40).annotate(last=Max("activities__created_at")).filter(
        last__lt=now - timedelta(days=10))
    assert slipping.count() >= 10
    assert Task.objects.filter(due_date__gte=today).exclude(status="done").count() > overdue.count()


def test_four_weeks_of_history(seeded: str) -> None:
    now = timezone.now()
    history = TaskActivity.objects.all()
    assert not history.filter(Q(created_at__gt=now) | Q(created_at__lt=now - timedelta(days=28))).exists()
    for week in range(4):
        in_week = history.filter(created_at__lte=now - timedelta(days=7 * week),
                                 created_at__gt=now - timedelta(days=7 * (week + 1)))
        kinds = set(in_week.values_list("kind", flat=True))
        assert {"created", "status", "progress"} <= kinds, (week, kinds)
    assert {"assigned", "updated"} <= set(history.values_list("kind", flat=True))
    assert not Task.objects.annotate(n=Count("activities", filter=Q(activities__kind="created"))).exclude(n=1).exists()
    first_event = Task.objects.annotate(first=Max("activities__created_at", filter=Q(activities__kind="created")))
    assert all(task.created_at == task.first for task in first_event)


def test_extra_tasks_add_exactly_n_with_history(seeded: str) -> None:
    before_tasks, before_history = Task.objects.count(), TaskActivity.objects.count()
    output = _seed("--tasks", "50", "--batch-size", "20")
    assert Task.objects.count() == before_tasks + 50
    new = Task.objects.order_by("-id")[:50]
    assert TaskActivity.objects.filter(task__in=new, kind="created").count() == 50
    assert TaskActivity.objects.count() > before_history + 50
    per_project = Task.objects.filter(pk__in=[t.pk for t in new]).values("project__key").annotate(n=Count("id"))
    assert sorted(row["n"] for row in per_project) == [16, 17, 17]
    assert "Added 50 tasks" in output


def test_extra_tasks_on_an_empty_database_seed_the_demo_first() -> None:
    _seed("--tasks", "7")
    demo = Task.objects.count() - 7
    _seed("--reset")
    assert Task.objects.count() == demo


def test_negative_task_count_is_refused() -> None:
    with pytest.raises(CommandError, match="--tasks"):
        _seed("--tasks", "-1")
    assert not Task.objects.exists()


ADMIN_PAGES = ["projects/project", "projects/membership", "tasks/task", "tasks/label", "tasks/taskactivity"]


@pytest.mark.parametrize("page", ADMIN_PAGES)
def test_admin_lists_and_opens_the_seeded_rows(page: str, seeded: str, client: Any) -> None:
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    changelist = client.get(f"/admin/{page}/", {"q": "a"})
    assert changelist.status_code == 200
    app_label, model_name = page.split("/")
    model = {"project": Project, "membership": Membership, "task": Task, "label": Label,
             "taskactivity": TaskActivity}[model_name]
    obj = model.objects.order_by("pk").first()
    assert client.get(f"/admin/{app_label}/{model_name}/{obj.pk}/change/").status_code == 200


def test_activity_history_is_read_only_in_the_admin(seeded: str, client: Any) -> None:
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    activity = TaskActivity.objects.order_by("pk").first()
    assert client.get("/admin/tasks/taskactivity/add/").status_code == 403
    response = client.post(f"/admin/tasks/taskactivity/{activity.pk}/change/", {"kind": "deleted"})
    assert response.status_code == 403
    assert client.post(f"/admin/tasks/taskactivity/{activity.pk}/delete/", {"post": "yes"}).status_code == 403
    assert TaskActivity.objects.filter(pk=activity.pk, kind=activity.kind).exists()
