"""Benchmark quick buttons against the plain task API doing the same work, interleaved.

Creates a throwaway database (bench/throwaway_db.py: SQLite in a temp dir, or <DATABASE_URL name>_bench_quick on
DATABASE_URL's server), seeds `--tasks` tasks, then times in one process, in alternating rounds A B A B …:

- my_overdue: POST /api/assistant/requests/ {"action": "my_overdue"} (page context, views,
  graph, trace, checkpoint) against GET /api/tasks/ with the same filters;
- mark_done: the task row's Done button against PATCH /api/tasks/<id>/ {"status": "done"},
  each round on a fresh todo task.

Each figure is the median of the per-round ratios B/A, so drift of a shared machine between
rounds cancels out. Requests go through django.test.Client in-process.

    .venv/bin/python bench/quick_button_vs_api.py [--rounds 30] [--tasks 400]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_bench .venv/bin/python bench/quick_button_vs_api.py
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throwaway_db import throwaway_database  # noqa: E402
from pm_assistant.vocabulary import STATUSES  # noqa: E402

BATCH = 5_000


def elapsed_ms(fn: Callable[[], Any]) -> float:
    """Run fn once; return its wall time in milliseconds."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def interleaved(quick: Callable[[], Any], plain: Callable[[], Any], rounds: int) -> dict[str, float]:
    """Time quick and plain in alternating rounds; return their medians and the median per-round ratio."""
    quick_ms, plain_ms, ratios = [], [], []
    for i in range(rounds):
        # Alternate which goes first, so neither always runs on a warmer cache.
        if i % 2:
            b = elapsed_ms(plain)
            a = elapsed_ms(quick)
        else:
            a = elapsed_ms(quick)
            b = elapsed_ms(plain)
        quick_ms.append(a)
        plain_ms.append(b)
        ratios.append(a / b)
    return {"quick": statistics.median(quick_ms), "plain": statistics.median(plain_ms),
            "ratio": statistics.median(ratios)}


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

    def rows() -> Iterator[Task]:
        for i in range(count):
            yield Task(project=projects[i % 2], title=f"Task {i}", status=STATUSES[i % len(STATUSES)],
                       priority=f"P{i % 4}", assignee=(alice, bob, None)[i % 3],
                       due_date=today + timedelta(days=(i % 41) - 20),
                       created_by=alice)

    Task.objects.bulk_create(rows(), batch_size=BATCH)
    return alice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--tasks", type=int, default=400, help="tasks to seed (400, 100000, ...)")
    args = parser.parse_args()

    with throwaway_database("quick"):
        from django.db import connection
        from django.test import Client
        from django.utils import timezone

        from tasks.models import Task

        alice = seed(args.tasks)
        client = Client()
        client.force_login(alice)
        yesterday = timezone.localdate() - timedelta(days=1)
        overdue_body = {"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}
        api_url = f"/api/tasks/?assignee=me&status=todo,in_progress,blocked&due_before={yesterday.isoformat()}"
        todo = iter(Task.objects.filter(status="todo").order_by("pk").values_list("pk", flat=True)
                    [: 2 * args.rounds + 4])

        def post(body: dict[str, Any]) -> dict[str, Any]:
            response = client.post("/api/assistant/requests/", body, content_type="application/json")
            assert response.status_code == 200, response.content
            return response.json()

        def quick_overdue() -> dict[str, Any]:
            return post(overdue_body)

        def plain_overdue() -> dict[str, Any]:
            response = client.get(api_url)
            assert response.status_code == 200, response.content
            return response.json()

        def quick_done() -> dict[str, Any]:
            task_id = next(todo)
            run = post({"action": "mark_done", "page_context": {
                "page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task_id}}})
            assert run["status"] == "done", run
            return run

        def plain_done() -> dict[str, Any]:
            response = client.patch(f"/api/tasks/{next(todo)}/", {"status": "done"}, content_type="application/json")
            assert response.status_code == 200, response.content
            return response.json()

        # Warm up (imports, encodings, checkpoint tables) and check the two sides agree.
        run, page = quick_overdue(), plain_overdue()
        assert run["status"] == "done" and run["route"]["via"] == "fast_path" and run["usage"]["llm_calls"] == 0
        assert run["data"]["count"] == page["count"], (run["data"]["count"], page["count"])
        quick_done(), plain_done()
        figures = {"my_overdue": interleaved(quick_overdue, plain_overdue, args.rounds),
                   "mark_done": interleaved(quick_done, plain_done, args.rounds)}

    print(f"database: {connection.vendor}, {args.tasks} tasks, {page['count']} overdue for the user, "
          f"{args.rounds} interleaved rounds, django.test.Client in-process, LLM calls: 0")
    labels = {"my_overdue": "GET /api/tasks/?assignee=me&status=...&due_before=",
              "mark_done": "PATCH /api/tasks/<id>/ {status: done}"}
    for name, f in figures.items():
        print(f"{name:<11} quick {f['quick']:8.2f} ms   {labels[name]} {f['plain']:8.2f} ms   "
              f"median ratio {f['ratio']:.2f}x")


if __name__ == "__main__":
    main()
