"""Benchmark the what-next, project-summary and workload buttons at two project sizes, side by side.

Creates a throwaway database (bench/throwaway_db.py: SQLite in a temp dir, or <DATABASE_URL's name>_bench_capabilities
on DATABASE_URL's server), seeds one project per size (default 20 000 and 100 000 tasks) with half a year of
history (bench/report_and_risk.py's seed), each owned by its own user and its tasks spread over the owner and
five members (one in seven unassigned), analyzes the tables as autovacuum would, then for `--rounds` rounds
presses each button on each project in turn, small then large, large then small (POST /api/assistant/requests/,
as the sidebar's buttons do, django.test.Client in-process):

- What next (Home: every project of its user; the owner holds a sixth of the open tasks);
- Project summary and Who has what (the project's page).

It prints, per button and size, the median wall time, the statements the request ran and the model calls (both
must be the same at every size: 0 calls, and statements constant in the number of tasks), the median ratio of
the large project's time to the small one's, and the database's share of the time.

    .venv/bin/python bench/capabilities_at_scale.py [--sizes 20000 100000] [--rounds 5]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_assistant .venv/bin/python bench/capabilities_at_scale.py
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throwaway_db import throwaway_database  # noqa: E402

MEMBERS = 5
BUTTONS = (("what_next", "home"), ("project_summary", "project_detail"), ("workload", "project_detail"))


def seeded_project(size: int, *, now: Any, rng: random.Random) -> tuple[Any, Any]:
    """A project of `size` tasks with its owner and MEMBERS members, the tasks spread over the seven of them."""
    from django.contrib.auth.models import User
    from django.db.models import F

    from bench.report_and_risk import seed
    from projects.models import Membership
    from tasks.models import Task

    owner = User.objects.create_user(f"owner{size}")
    project = seed(owner, f"Project {size}", f"P{size // 1000}K", size, now=now, rng=rng)
    people = [owner]
    for n in range(MEMBERS):
        member = User.objects.create_user(f"member{n}_{size}")
        Membership.objects.create(user=member, project=project, role=Membership.Role.MEMBER)
        people.append(member)
    # The seed assigns two tasks in three to the owner: spread them by id, one in seven left unassigned.
    tasks = Task.objects.filter(project=project).annotate(slot=F("id") % (len(people) + 1))
    for slot, person in enumerate(people):
        tasks.filter(slot=slot).update(assignee=person)
    tasks.filter(slot=len(people)).update(assignee=None)
    return owner, project


def pressed(client: Any, action: str, page: str, project_id: int) -> dict[str, Any]:
    """Press one button; return its wall time, statements, database time and model calls."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    context: dict[str, Any] = {"page": page, "origin": "workbench" if page == "home" else "quick_button"}
    if page == "project_detail":
        context["routeParams"] = {"projectId": project_id}
    with CaptureQueriesContext(connection) as captured:
        start = time.perf_counter()
        response = client.post("/api/assistant/requests/", json.dumps({"action": action, "page_context": context}),
                               content_type="application/json")
        elapsed = (time.perf_counter() - start) * 1000
    body = response.json()
    assert response.status_code == 200 and body["status"] == "done", (action, body)
    return {"ms": elapsed, "statements": len(captured.captured_queries), "llm_calls": body["usage"]["llm_calls"],
            "sql_ms": sum(float(q["time"]) * 1000 for q in captured.captured_queries)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[20_000, 100_000])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    with throwaway_database("capabilities"):
        from django.db import connection
        from django.test import Client
        from django.utils import timezone

        from bench.report_and_risk import analyze

        rng, now = random.Random(38), timezone.now()  # noqa: S311 - seed data, not secrets
        made = [seeded_project(size, now=now - timedelta(minutes=5), rng=rng) for size in args.sizes]
        analyze()
        clients = []
        for owner, _ in made:
            client = Client()
            client.force_login(owner)
            clients.append(client)
        runs: dict[tuple[str, int], list[dict[str, Any]]] = {(a, s): [] for a, _ in BUTTONS for s in args.sizes}
        for action, page in BUTTONS:  # warm: templates, URL patterns, the query plans
            for client, (_, project) in zip(clients, made, strict=True):
                pressed(client, action, page, project.pk)
        for r in range(args.rounds):
            for action, page in BUTTONS:
                order = list(range(len(made)))[:: 1 if r % 2 == 0 else -1]
                for i in order:
                    runs[(action, args.sizes[i])].append(pressed(clients[i], action, page, made[i][1].pk))

    small, large = args.sizes
    print(f"database: {connection.vendor}, one project of {small} and one of {large} tasks, each with its owner and "
          f"{MEMBERS} members; {args.rounds} rounds, the sizes alternating; times are medians")
    print(f"{'button':<18}{'tasks':>8}{'wall ms':>10}{'SQL ms':>10}{'statements':>12}{'model calls':>13}"
          f"{'ratio large/small':>19}")
    for action, _ in BUTTONS:
        a, b = runs[(action, small)], runs[(action, large)]
        ratio = statistics.median(y["ms"] / x["ms"] for x, y in zip(a, b, strict=True))
        for size, rows in ((small, a), (large, b)):
            statements = sorted({row["statements"] for row in rows})
            calls = sorted({row["llm_calls"] for row in rows})
            print(f"{action:<18}{size:>8}{statistics.median(r['ms'] for r in rows):>10.1f}"
                  f"{statistics.median(r['sql_ms'] for r in rows):>10.1f}{'/'.join(map(str, statements)):>12}"
                  f"{'/'.join(map(str, calls)):>13}" + (f"{ratio:>18.2f}x" if size == large else ""))


if __name__ == "__main__":
    main()
