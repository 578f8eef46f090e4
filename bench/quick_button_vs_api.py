"""Benchmark a quick button against the plain task-list API doing the same query.

Creates a throwaway database (SQLite in a temp dir, or a test database next to DATABASE_URL),
seeds a few hundred tasks, then measures in one run the server time of N "my overdue" quick
actions from the workbench (POST /api/assistant/requests/: page context, views, graph, trace,
checkpoint) and of N calls of GET /api/tasks/ with the same filters, in-process through
django.test.Client, and prints both medians and their ratio.

    .venv/bin/python bench/quick_button_vs_api.py [--n 50] [--tasks 400]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STATUSES = ("todo", "in_progress", "blocked", "done")


def timed(fn: Callable[[], Any], n: int) -> list[float]:
    """Run fn n times; return each run's wall time in milliseconds."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def seed(count: int) -> Any:
    """Create alice and bob, two projects and `count` tasks; return alice."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from projects.models import Membership, Project
    from tasks.models import Task

    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    today = timezone.localdate()
    projects = []
    for owner, name, key in ((alice, "Website Redesign", "WEB"), (alice, "Mobile App", "MOB")):
        project = Project.objects.create(owner=owner, name=name, key=key)
        Membership.objects.create(user=alice, project=project, role=Membership.Role.OWNER)
        Membership.objects.create(user=bob, project=project, role=Membership.Role.MEMBER)
        projects.append(project)
    Task.objects.bulk_create(
        Task(project=projects[i % 2], title=f"Task {i}", status=STATUSES[i % 4], priority=f"P{i % 4}",
             assignee=(alice, bob, None)[i % 3], due_date=today + timedelta(days=(i % 41) - 20), created_by=alice)
        for i in range(count)
    )
    return alice


def main(work: Path) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--tasks", type=int, default=400)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")
    os.environ["AGENT_CHECKPOINT_SQLITE_PATH"] = str(work / "checkpoints.sqlite")
    os.environ["LLM_PROVIDER"] = "offline"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment, teardown_test_environment
    from django.utils import timezone

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = (
        str(work / "bench.sqlite3") if connection.vendor == "sqlite" else "bench_pm_assistant")
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        alice = seed(args.tasks)
        client = Client()
        client.force_login(alice)
        yesterday = timezone.localdate() - timedelta(days=1)
        quick_body = {"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}
        api_url = f"/api/tasks/?assignee=me&status=todo,in_progress,blocked&due_before={yesterday.isoformat()}"

        def quick() -> dict[str, Any]:
            response = client.post("/api/assistant/requests/", quick_body, content_type="application/json")
            assert response.status_code == 200, response.content
            return response.json()

        def plain() -> dict[str, Any]:
            response = client.get(api_url)
            assert response.status_code == 200, response.content
            return response.json()

        run, page = quick(), plain()  # warm up (imports, encodings, checkpoint tables) and check they agree
        assert run["status"] == "done" and run["route"]["via"] == "fast_path" and run["usage"]["llm_calls"] == 0
        assert run["data"]["count"] == page["count"], (run["data"]["count"], page["count"])
        quick_ms = timed(quick, args.n)
        plain_ms = timed(plain, args.n)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()

    quick_median, plain_median = statistics.median(quick_ms), statistics.median(plain_ms)
    print(f"database: {connection.vendor}, {args.tasks} tasks, {page['count']} overdue for the user, "
          f"n={args.n} each, django.test.Client in-process")
    print(f"quick button  POST /api/assistant/requests/ (my_overdue): median {quick_median:7.2f} ms  "
          f"(p90 {statistics.quantiles(quick_ms, n=10)[-1]:.2f} ms)")
    print(f"plain API     GET /api/tasks/?assignee=me&status=...&due_before=: median {plain_median:7.2f} ms  "
          f"(p90 {statistics.quantiles(plain_ms, n=10)[-1]:.2f} ms)")
    print(f"ratio quick button / plain API: {quick_median / plain_median:.1f}x  (LLM calls: 0)")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench-quick-") as tmp:
        main(Path(tmp))
