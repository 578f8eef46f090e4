"""Benchmark the weekly report and the delay risk at several project sizes, side by side.

Creates a throwaway database (SQLite in a temp dir, or <DATABASE_URL's name>_bench_reports next to
DATABASE_URL), seeds one project per size (default 200, 20 000 and 100 000 tasks), each with half a
year of history, analyzes the tables as autovacuum would (VACUUM ANALYZE on PostgreSQL: the plans a
production database uses), then for `--rounds` rounds times each project in turn, A B C A B C ...:

- the SQL statements of one weekly report (collect, project, verify): must be equal at every size;
- the report's wall time and its single largest statement (run again right after, every row
  fetched), and the median of the per-round ratios report / largest statement;
- the same for the delay risk (facts, scoring, the top tasks);
- the prompt tokens of the polish call against inlining the week's rows instead of the figures.

    .venv/bin/python bench/report_and_risk.py [--sizes 200 20000 100000] [--rounds 7]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_bench .venv/bin/python bench/report_and_risk.py
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throwaway_db import throwaway_database  # noqa: E402
from pm_assistant.vocabulary import STATUSES  # noqa: E402


def seed(owner: Any, name: str, key: str, count: int, *, now: datetime, rng: random.Random) -> Any:
    """A project of `count` tasks created over 26 weeks; a fifth changed status or due date within 30 days after."""
    from projects.models import Membership, Project
    from tasks.models import Task, TaskActivity

    project = Project.objects.create(owner=owner, name=name, key=key)
    Membership.objects.create(user=owner, project=project, role=Membership.Role.OWNER)
    today = now.date()
    tasks, created_at = [], []
    for i in range(count):
        created = now - timedelta(days=rng.randint(1, 182), minutes=rng.randint(0, 1439))
        created_at.append(created)
        status = STATUSES[i % len(STATUSES)]
        tasks.append(Task(project=project, title=f"{key} task {i}", status=status, priority=f"P{i % 4}",
                          assignee=owner if i % 3 else None, created_by=owner,
                          due_date=today + timedelta(days=rng.randint(-30, 30))))
    Task.objects.bulk_create(tasks, batch_size=2000)
    # auto_now_add ignores the value given: set the creation times afterwards, in one pass per batch.
    ids = list(Task.objects.filter(project=project).values_list("id", flat=True))
    for task_id, task, created in zip(ids, tasks, created_at, strict=True):
        task.pk, task.created_at = task_id, created
    Task.objects.bulk_update(tasks, ["created_at"], batch_size=2000)
    history = []
    for task in tasks[:: 5]:
        at = min(now - timedelta(minutes=1), task.created_at + timedelta(hours=rng.randint(1, 720)))
        if task.status == "done":
            task.completed_at = at
            history.append(TaskActivity(project=project, task=task, task_title=task.title, kind="status",
                                        field="status", from_value="in_progress", to_value="done", created_at=at))
        else:
            later = task.due_date + timedelta(days=7) if task.due_date else None
            history.append(TaskActivity(project=project, task=task, task_title=task.title, kind="updated",
                                        field="due_date", from_value=str(task.due_date), to_value=str(later),
                                        created_at=at))
    TaskActivity.objects.bulk_create(history, batch_size=2000)
    # A done task without history was finished the day after it was made.
    for task in tasks:
        if task.status == "done" and task.completed_at is None:
            task.completed_at = task.created_at + timedelta(days=1)
    Task.objects.bulk_update(tasks, ["completed_at"], batch_size=2000)
    return project


def measured(fn: Any) -> tuple[Any, float, list[dict[str, Any]]]:
    """Run fn once; return its result, wall time in ms and the queries it made (with their times)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        result = fn()
        elapsed = (time.perf_counter() - start) * 1000
    return result, elapsed, list(queries.captured_queries)


def slowest_query(queries: list[dict[str, Any]]) -> float:
    """Run each captured statement again, fetching every row, and return the slowest in ms."""
    from django.db import connection

    slowest = 0.0
    with connection.cursor() as cursor:
        for query in queries:
            start = time.perf_counter()
            cursor.execute(query["sql"])
            cursor.fetchall()
            slowest = max(slowest, (time.perf_counter() - start) * 1000)
    return slowest


def analyze() -> None:
    """Give the planner statistics, as autovacuum does within a minute of a bulk load."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")


def timed_against_largest(fn: Any) -> dict[str, Any]:
    """One run of fn: its result, wall time, statements, largest statement and the ratio of the two."""
    result, ms, queries = measured(fn)
    largest = slowest_query(queries)
    return {"result": result, "ms": ms, "queries": len(queries), "largest": largest, "ratio": ms / largest}


def medians(runs: list[dict[str, Any]]) -> dict[str, float]:
    """The median of each figure over the rounds (the ratio: of the per-round ratios)."""
    return {key: statistics.median(run[key] for run in runs) for key in ("ms", "largest", "ratio")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 20_000, 100_000])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    with throwaway_database("reports"):
        from django.contrib.auth.models import User
        from django.db import connection
        from django.utils import timezone

        from agent.capabilities.common.polish import POLISH_INSTRUCTIONS
        from agent.context.tokens import token_count
        from agent.prompting.messages import PromptPart, prompt_assemble
        from reports.collect import report_read
        from reports.narrative import figures_words, report_headline
        from reports.pipeline import weekly_report_build
        from reports.risk.assess import risk_assess
        from reports.scope import ReportWindows, scope_for_user
        from reports.week import week_resolve

        rng = random.Random(7)  # noqa: S311 seeded for repeatable data, not for secrets
        now = timezone.now()
        owner = User.objects.create_user("alice")
        scopes = {size: scope_for_user(user=owner, project_id=seed(owner, f"P{size}", f"P{size}", size,
                                                                    now=now, rng=rng).pk) for size in args.sizes}
        analyze()
        windows = ReportWindows.for_week(week_resolve(None, now=now), now=now)
        today = timezone.localdate()
        reports: dict[int, list[dict[str, Any]]] = {size: [] for size in args.sizes}
        risks: dict[int, list[dict[str, Any]]] = {size: [] for size in args.sizes}
        for scope in scopes.values():  # warm up: imports, statement caches, the tables in memory
            weekly_report_build(scope=scope, windows=windows)
            risk_assess(scope=scope, today=today)
        for _ in range(args.rounds):
            for size, scope in scopes.items():
                reports[size].append(timed_against_largest(
                    lambda scope=scope: weekly_report_build(scope=scope, windows=windows)))
                risks[size].append(timed_against_largest(lambda scope=scope: risk_assess(scope=scope, today=today)))
        big = max(args.sizes)
        tokens_size = sorted(args.sizes)[1] if len(args.sizes) > 1 else big
        read = report_read(scope=scopes[tokens_size], windows=windows)
        rows = {"tasks": read.tasks, "events": read.events}
        materialised = {size: len(report_read(scope=scope, windows=windows).tasks) for size, scope in scopes.items()}

    def prompt_tokens(user_text: str) -> int:
        prompt = prompt_assemble([
            PromptPart(ref="prompt:polish_weekly_report", form="instruction", role="system",
                       text=POLISH_INSTRUCTIONS.format(what="weekly report")),
            PromptPart(ref="week", form="full", role="user", text=user_text, heading="This week:")])
        return sum(token_count(m["content"]) for m in prompt.messages)

    print(f"database: {connection.vendor} (analyzed); week {windows.current.week.label}; "
          f"{args.rounds} interleaved rounds, medians")

    def row(label: str, values: list[str]) -> None:
        print(f"{label:<44}" + "".join(f"{v:>16}" for v in values))

    row("tasks in the project", [f"{size:,}" for size in args.sizes])
    for name, runs in (("weekly report", reports), ("delay risk", risks)):
        figures = {size: medians(runs[size]) for size in args.sizes}
        counts = {size: {run["queries"] for run in runs[size]} for size in args.sizes}
        row(f"{name}: SQL statements", [",".join(map(str, sorted(counts[size]))) for size in args.sizes])
        row(f"{name}: wall time", [f"{figures[size]['ms']:.1f} ms" for size in args.sizes])
        row(f"{name}: largest statement", [f"{figures[size]['largest']:.1f} ms" for size in args.sizes])
        row(f"{name}: wall / largest statement", [f"{figures[size]['ratio']:.2f}x" for size in args.sizes])
        same = len({c for size in args.sizes for c in counts[size]}) == 1
        print(f"{'':<44}SQL statements {'equal at every size' if same else 'NOT EQUAL'}")
    row("weekly report: task rows read", [f"{materialised[size]:,}" for size in args.sizes])
    row("delay risk: open tasks scored", [f"{risks[size][0]['result'].open_tasks:,}" for size in args.sizes])
    report = reports[tokens_size][0]["result"]
    figures_text = "\n".join([f"{report_headline(report)}.", *figures_words(report.current),
                               f"the week before ({report.previous.week}):", *figures_words(report.previous)])
    # The rows inline, one compact JSON line each; counted line by line (the tokenizer caps one call).
    lines = [json.dumps(r, separators=(",", ":")) for rs in rows.values() for r in rs]
    with_figures = prompt_tokens(figures_text)
    with_rows = prompt_tokens("") + sum(token_count(line + "\n") for line in lines)
    print(f"polish prompt tokens at {tokens_size:,} tasks: {with_figures} with the verified figures, "
          f"{with_rows} inlining the week's rows ({with_rows / with_figures:.0f}x)")


if __name__ == "__main__":
    main()
