"""Benchmark the pages at scale: the task list's last page against its first, home at 100k against 1k.

Creates a throwaway database (bench/throwaway_db.py: SQLite in a temp dir, or <DATABASE_URL's name>_bench_pages
on DATABASE_URL's server), seeds alice with two projects and `--tasks` tasks (41 due dates, so many
ties, and one task in 50 without a due date) and sam with one project and `--small` tasks, then times in one process,
in alternating rounds A B A B … (django.test.Client, logged in):

- task list: GET /tasks/ against its last page (the pager's last link; before cursors: ?page=N);
- REST: GET /api/tasks/ against its last page (the `last` link; before: ?page=N);
- home: GET / for sam (1k tasks) against GET / for alice (100k tasks);
- project page: a project of sam's against one of alice's;
- home after a long conversation: GET / for sam against GET / for sam in a session whose sidebar
  conversation has `--conversation` runs (asked in the sidebar: the page renders the latest ones).

Each figure is the median of per-round ratios B/A; the SQL column is the median time the database
spent on the B request (django's query log), and its slowest statement.

    .venv/bin/python bench/pages_at_scale.py [--rounds 15] [--tasks 100000] [--small 1000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_bench .venv/bin/python bench/pages_at_scale.py
"""
from __future__ import annotations

import argparse
import html
import math
import re
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


def seed(*, owner: Any, projects: list[tuple[str, str]], count: int) -> list[Any]:
    """Give `owner` these projects and `count` tasks spread over them; return the projects."""
    from django.utils import timezone

    from projects.models import Membership, Project
    from tasks.models import Task

    today = timezone.localdate()
    made = []
    for name, key in projects:
        project = Project.objects.create(owner=owner, name=name, key=key)
        Membership.objects.create(user=owner, project=project, role=Membership.Role.OWNER)
        made.append(project)

    def rows() -> Iterator[Task]:
        for i in range(count):
            due = None if i % 50 == 49 else today + timedelta(days=(i % 41) - 20)
            yield Task(project=made[i % len(made)], title=f"Task {i}", status=STATUSES[i % len(STATUSES)],
                       priority=f"P{i % 4}", assignee=owner if i % 3 else None, due_date=due, created_by=owner)

    Task.objects.bulk_create(rows(), batch_size=BATCH)
    return made


def timed(client: Any, url: str) -> tuple[float, list[dict[str, str]]]:
    """GET url; return the wall time in ms and the statements it ran."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        start = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, (url, response.status_code)
    return elapsed, captured.captured_queries


def interleaved(a: Callable[[], tuple[float, list[dict[str, str]]]],
                b: Callable[[], tuple[float, list[dict[str, str]]]], rounds: int) -> dict[str, Any]:
    """Alternate a and b; return their median times, the median ratio b/a and b's SQL time."""
    a_ms, b_ms, ratios, b_sql, b_slowest, statements = [], [], [], [], [], 0
    for i in range(rounds):
        if i % 2:
            (tb, qb), (ta, _) = b(), a()
        else:
            (ta, _), (tb, qb) = a(), b()
        a_ms.append(ta)
        b_ms.append(tb)
        ratios.append(tb / ta)
        times = [float(q["time"]) * 1000 for q in qb]
        b_sql.append(sum(times))
        b_slowest.append(max(times, default=0.0))
        statements = len(qb)
    return {"a": statistics.median(a_ms), "b": statistics.median(b_ms), "ratio": statistics.median(ratios),
            "sql": statistics.median(b_sql), "slowest": statistics.median(b_slowest), "statements": statements,
            "b_queries": qb}


def last_page_url(client: Any, first_url: str) -> str:
    """The list's last page as its pager links it (rel=last), else by number (before keyset pages)."""
    text = client.get(first_url).content.decode()
    found = re.search(r'rel="last" href="([^"]+)"', text)
    if found:
        # The pager's links are "?query" of the page they are on.
        return first_url + html.unescape(found.group(1))
    numbers = [int(n) for n in re.findall(r"[?&](?:amp;)?page=(\d+)", text)]
    return f"{first_url}?page={max(numbers)}"


def last_api_url(client: Any, first_url: str) -> str:
    body = client.get(first_url).json()
    if body.get("last"):
        return str(body["last"])
    return f"{first_url}?page={math.ceil(body['count'] / len(body['results']))}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--tasks", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--conversation", type=int, default=60, help="runs in the long conversation")
    parser.add_argument("--sql", action="store_true", help="also print B's statements of the last round, slowest first")
    args = parser.parse_args()

    with throwaway_database("pages"):
        from django.contrib.auth.models import User
        from django.db import connection
        from django.test import Client

        alice, sam = User.objects.create_user("alice"), User.objects.create_user("sam")
        big = seed(owner=alice, projects=[("Website Redesign", "WEB"), ("Mobile App", "MOB")], count=args.tasks)
        small = seed(owner=sam, projects=[("Small Shop", "SHOP")], count=args.small)
        if connection.vendor == "postgresql":
            # As autovacuum leaves tables after a bulk load: statistics and the visibility map.
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
        big_client, small_client = Client(), Client()
        big_client.force_login(alice)
        small_client.force_login(sam)
        last_html = last_page_url(big_client, "/tasks/")
        last_api = last_api_url(big_client, "/api/tasks/")
        for url in ("/", "/tasks/", last_html, "/api/tasks/", last_api, f"/projects/{big[0].pk}/"):
            timed(big_client, url)  # warm: templates, URL patterns, the query plans
        timed(small_client, "/")
        timed(small_client, f"/projects/{small[0].pk}/")
        talker = Client()
        talker.force_login(sam)
        for n in range(args.conversation):
            asked = talker.post("/assistant/request/", {"message": f"show my blocked tasks {n}",
                                                        "page_context": '{"page": "home", "origin": "sidebar"}'})
            assert asked.status_code == 200, asked.status_code
        timed(talker, "/")
        sizes = (len(small_client.get("/").content), len(talker.get("/").content))
        figures = {
            "task list last page vs first": interleaved(lambda: timed(big_client, "/tasks/"),
                                                         lambda: timed(big_client, last_html), args.rounds),
            "REST last page vs first": interleaved(lambda: timed(big_client, "/api/tasks/"),
                                                    lambda: timed(big_client, last_api), args.rounds),
            f"home {args.tasks} vs {args.small} tasks": interleaved(lambda: timed(small_client, "/"),
                                                                   lambda: timed(big_client, "/"), args.rounds),
            f"project page {args.tasks // 2} vs {args.small} tasks": interleaved(
                lambda: timed(small_client, f"/projects/{small[0].pk}/"),
                lambda: timed(big_client, f"/projects/{big[0].pk}/"), args.rounds),
            f"home, {args.conversation}-run conversation vs none": interleaved(
                lambda: timed(small_client, "/"), lambda: timed(talker, "/"), args.rounds),
        }

    print(f"database: {connection.vendor}, alice {args.tasks} tasks in 2 projects, sam {args.small} in 1, "
          f"{args.rounds} interleaved rounds, django.test.Client in-process")
    print(f"last pages: {last_html}   {last_api.replace('http://testserver', '')}   home's size without and with "
          f"the conversation: {sizes[0] / 1024:.0f} KB, {sizes[1] / 1024:.0f} KB")
    for name, f in figures.items():
        print(f"{name:<38} A {f['a']:8.2f} ms   B {f['b']:8.2f} ms   median ratio B/A {f['ratio']:5.2f}x   "
              f"B's SQL {f['sql']:7.2f} ms in {f['statements']} statements (slowest {f['slowest']:.2f} ms)")
        if args.sql:
            for q in sorted(f["b_queries"], key=lambda q: -float(q["time"]))[:4]:
                print(f"    {float(q['time']) * 1000:6.2f} ms  {q['sql'][:160]}")


if __name__ == "__main__":
    main()
