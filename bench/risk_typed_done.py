"""Benchmark the delay risk (panel and quick button), a typed question against its quick button, and Mark done.

Creates a throwaway database (bench/throwaway_db.py), seeds one user and one project per size (default
400, 1 000, 20 000 and 100 000 tasks; half a year of history as bench/report_and_risk.py seeds it),
analyzes the tables as autovacuum would, then for `--rounds` rounds times every action at every size
in turn, each pair in alternating order (A B, then B A), through django.test.Client in-process:

- the weekly report (reports.pipeline, the yardstick for the risk's statement);
- the risk panel (GET /projects/<id>/reports/risk/) and the "Tasks at risk" quick button;
- "My overdue tasks": the quick button against the same question typed ("show my overdue tasks",
  the offline provider);
- Mark done (the task row's button) against PATCH /api/tasks/<id>/ {"status": "done"}, each on a
  fresh todo task.

Each action is timed as served (DEBUG off, no statement captured), then run again untimed with its
statements captured. For each: the median wall time and its spread (25th-75th percentile), the SQL
statements, the largest statement (each SELECT of the untimed run run again, every row fetched) and the
median per-round ratio wall / largest statement; the pairs' median per-round ratios; and, in one
pass after the timed rounds, the peak of Python memory the action allocated (tracemalloc: the rows
a statement returns are allocated there).

    .venv/bin/python bench/risk_typed_done.py [--sizes 400 1000 20000 100000] [--rounds 7]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_bench .venv/bin/python bench/risk_typed_done.py
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.report_and_risk import analyze, seed  # noqa: E402
from bench.throwaway_db import throwaway_database  # noqa: E402

TYPED = "show my overdue tasks"
_RERUN = ("SELECT", "WITH")


def largest_statement(queries: list[dict[str, Any]]) -> float:
    """Run each captured read again (not a locking one), fetching every row; return the slowest in ms."""
    from django.db import connection

    slowest = 0.0
    with connection.cursor() as cursor:
        for query in queries:
            sql = query["sql"].lstrip()
            if not sql.startswith(_RERUN) or " FOR UPDATE" in sql or " FOR NO KEY UPDATE" in sql:
                continue
            start = time.perf_counter()
            cursor.execute(sql)
            cursor.fetchall()
            slowest = max(slowest, (time.perf_counter() - start) * 1000)
    return slowest


def measured(fn: Callable[[], Any]) -> dict[str, float]:
    """One run of fn as served (no statement capture): its wall time."""
    start = time.perf_counter()
    fn()
    return {"ms": (time.perf_counter() - start) * 1000}


def statements(fn: Callable[[], Any]) -> dict[str, float]:
    """Another run of fn, untimed, with its statements captured: how many, and the largest (run again)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        fn()
    return {"sql": len(captured.captured_queries), "largest": largest_statement(captured.captured_queries)}


def peak_mb(fn: Callable[[], Any]) -> float:
    """The peak of Python memory fn allocated beyond what was allocated before it, in MB."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn()
        return (tracemalloc.get_traced_memory()[1] - before) / 2**20
    finally:
        tracemalloc.stop()


def spread(values: list[float]) -> str:
    """The median with the 25th-75th percentile."""
    if len(values) < 4:
        return f"{statistics.median(values):.1f}"
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.1f} ({q1:.0f}-{q3:.0f})"


def ratio_spread(values: list[float]) -> str:
    if len(values) < 4:
        return f"{statistics.median(values):.2f}x"
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.2f}x ({q1:.2f}-{q3:.2f})"


class Size:
    """One user with one project of `count` tasks, and the requests the benchmark sends as that user."""

    def __init__(self, count: int, *, now: Any, rng: random.Random) -> None:
        from django.contrib.auth.models import User
        from django.test import Client

        from reports.scope import scope_for_user
        from tasks.models import Task

        self.count = count
        self.user = User.objects.create_user(f"owner{count}")
        self.project = seed(self.user, f"P{count}", f"P{count}", count, now=now, rng=rng)
        self.scope = scope_for_user(user=self.user, project_id=self.project.pk)
        self.client = Client()
        self.client.force_login(self.user)
        self.todo: Iterator[int] = iter(Task.objects.filter(project=self.project, status="todo")
                                        .order_by("pk").values_list("pk", flat=True)[:2000])

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post("/api/assistant/requests/", body, content_type="application/json")
        assert response.status_code == 200, response.content
        run = response.json()
        assert run["status"] == "done", run
        return run

    def report(self) -> Any:
        from django.utils import timezone

        from reports.pipeline import weekly_report_build
        from reports.scope import ReportWindows
        from reports.week import week_resolve

        now = timezone.now()
        return weekly_report_build(scope=self.scope, windows=ReportWindows.for_week(week_resolve(None, now=now),
                                                                                     now=now))

    def panel(self) -> Any:
        response = self.client.get(f"/projects/{self.project.pk}/reports/risk/", headers={"HX-Request": "true"})
        assert response.status_code == 200, response.content
        return response

    def risk_quick(self) -> dict[str, Any]:
        return self._post({"action": "risk_analysis", "page_context": {
            "page": "project_detail", "origin": "quick_button", "routeParams": {"projectId": self.project.pk},
            "selectedEntity": {"type": "project", "id": self.project.pk}}})

    def overdue_quick(self) -> dict[str, Any]:
        return self._post({"action": "my_overdue", "page_context": {"page": "home", "origin": "quick_button"}})

    def overdue_typed(self) -> dict[str, Any]:
        return self._post({"message": TYPED, "page_context": {"page": "home", "origin": "sidebar"}})

    def done_quick(self) -> dict[str, Any]:
        return self._post({"action": "mark_done", "page_context": {
            "page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": next(self.todo)}}})

    def done_api(self) -> Any:
        response = self.client.patch(f"/api/tasks/{next(self.todo)}/", {"status": "done"},
                                     content_type="application/json")
        assert response.status_code == 200, response.content
        return response


ACTIONS = ("report", "panel", "risk_quick", "overdue_quick", "overdue_typed", "done_quick", "done_api")
LABELS = {"report": "weekly report (build)", "panel": "risk panel (GET, HTMX)",
          "risk_quick": '"Tasks at risk" quick button', "overdue_quick": '"My overdue tasks" quick button',
          "overdue_typed": f'typed "{TYPED}" (offline)', "done_quick": "Mark done quick button",
          "done_api": "PATCH /api/tasks/<id>/ status done"}
# Timed back to back, in alternating order: (A, B) and the ratio A / B printed for each.
PAIRS = (("panel", "report"), ("risk_quick", "panel"), ("overdue_typed", "overdue_quick"), ("done_quick", "done_api"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[400, 1_000, 20_000, 100_000])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    with throwaway_database("risk_typed"):
        from django.conf import settings
        from django.db import connection
        from django.utils import timezone

        settings.DEBUG = False  # as served: no statement is logged unless captured

        rng = random.Random(7)  # noqa: S311 seeded for repeatable data, not for secrets
        now = timezone.now()
        sizes = [Size(count, now=now, rng=rng) for count in args.sizes]
        analyze()
        for size in sizes:  # warm up: imports, statement caches, the tables in memory; the answers agree
            for name in ACTIONS:
                getattr(size, name)()
            quick, typed = size.overdue_quick(), size.overdue_typed()
            assert (typed["data"]["count"], typed["data"]["items"]) == (quick["data"]["count"], quick["data"]["items"])
            assert typed["route"]["capability"] == "query", typed["route"]
        runs: dict[tuple[int, str], list[dict[str, float]]] = {(s.count, a): [] for s in sizes for a in ACTIONS}
        pair_ratios: dict[tuple[int, str], list[float]] = {(s.count, f"{a}/{b}"): [] for s in sizes for a, b in PAIRS}
        largest_vs: dict[int, list[float]] = {s.count: [] for s in sizes}
        for i in range(args.rounds):
            for size in sizes:
                for a, b in PAIRS:
                    order = (a, b) if i % 2 == 0 else (b, a)
                    got = {name: measured(getattr(size, name)) for name in order}
                    for name in order:  # the statements of the same action, right after, untimed
                        got[name] |= statements(getattr(size, name))
                        got[name]["ratio"] = got[name]["ms"] / got[name]["largest"]
                    for name in order:
                        runs[(size.count, name)].append(got[name])
                    pair_ratios[(size.count, f"{a}/{b}")].append(got[a]["ms"] / got[b]["ms"])
                    if (a, b) == ("panel", "report"):
                        largest_vs[size.count].append(got["panel"]["largest"] / got["report"]["largest"])
        memory = {(size.count, name): peak_mb(getattr(size, name)) for size in sizes for name in ACTIONS}
        vendor = connection.vendor

    counts = [s.count for s in sizes]
    print(f"database: {vendor} (analyzed); {args.rounds} rounds, each pair alternating; medians "
          "(25th-75th percentile); django.test.Client in-process; the offline provider")

    def row(label: str, values: list[str]) -> None:
        print(f"{label:<58}" + "".join(f"{v:>24}" for v in values))

    row("tasks in the user's project", [f"{c:,}" for c in counts])
    for name in ACTIONS:
        print(LABELS[name])
        figures = [runs[(c, name)] for c in counts]
        row("  wall time, ms", [spread([r["ms"] for r in f]) for f in figures])
        row("  largest statement, ms", [spread([r["largest"] for r in f]) for f in figures])
        row("  wall / largest statement", [ratio_spread([r["ratio"] for r in f]) for f in figures])
        row("  SQL statements", [",".join(str(n) for n in sorted({int(r["sql"]) for r in f})) for f in figures])
        row("  peak Python memory added, MB", [f"{memory[(c, name)]:.1f}" for c in counts])
    print("pairs, median of the per-round ratios (25th-75th percentile)")
    for a, b in PAIRS:
        row(f"  {a} / {b}", [ratio_spread(pair_ratios[(c, f'{a}/{b}')]) for c in counts])
    row("  risk's largest statement / the report's", [ratio_spread(largest_vs[c]) for c in counts])


if __name__ == "__main__":
    main()
