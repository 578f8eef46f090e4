"""Benchmark the weekly report and the risk scoring on a large project against a small one.

Creates a throwaway database (SQLite in a temp dir, or a test database next to DATABASE_URL),
seeds a project of --large tasks and one of --small tasks, each with half a year of history,
and prints:

- the SQL queries of one weekly report (collect, project, verify) on each project: must be equal;
- the report's wall time on the large project as a ratio to its single largest query;
- the prompt tokens of the polish call against inlining the week's rows instead of the figures;
- the risk scoring's wall time and query count on the large project (and on the small one).

    .venv/bin/python bench/report_and_risk.py [--large 20000] [--small 200]
"""
from __future__ import annotations

import argparse
import json
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", type=int, default=20_000)
    parser.add_argument("--small", type=int, default=200)
    args = parser.parse_args()

    with throwaway_database("reports"):
        from django.contrib.auth.models import User
        from django.db import connection
        from django.utils import timezone

        from agent.assembler.tokens import token_count
        from agent.capabilities.polish import POLISH_INSTRUCTIONS
        from agent.prompting.assembler import PromptPart, prompt_assemble
        from reports.collect import report_events, report_tasks
        from reports.narrative import figures_words, report_headline
        from reports.pipeline import weekly_report_build
        from reports.risk.assess import risk_assess
        from reports.scope import ReportWindows, scope_for_user
        from reports.week import week_resolve

        rng = random.Random(7)  # noqa: S311 seeded for repeatable data, not for secrets
        now = timezone.now()
        owner = User.objects.create_user("alice")
        large = seed(owner, "Large", "BIG", args.large, now=now, rng=rng)
        small = seed(owner, "Small", "SML", args.small, now=now, rng=rng)
        windows = ReportWindows.for_week(week_resolve(None, now=now), now=now)
        results = {}
        for project in (small, large):
            scope = scope_for_user(user=owner, project_id=project.pk)
            weekly_report_build(scope=scope, windows=windows)  # warm up
            report, ms, queries = measured(lambda scope=scope: weekly_report_build(scope=scope, windows=windows))
            risk, risk_ms, risk_queries = measured(
                lambda scope=scope: risk_assess(scope=scope, today=timezone.localdate()))
            rows = {"tasks": report_tasks(scope=scope, windows=windows)["items"],
                    "events": report_events(scope=scope, windows=windows)["items"]}
            results[project.key] = (report, ms, queries, risk, risk_ms, risk_queries, rows,
                                    slowest_query(queries), slowest_query(risk_queries))

    def prompt_tokens(user_text: str) -> int:
        prompt = prompt_assemble([
            PromptPart(ref="prompt:polish_weekly_report", form="instruction", role="system",
                       text=POLISH_INSTRUCTIONS.format(what="weekly report")),
            PromptPart(ref="week", form="full", role="user", text=user_text, heading="This week:")])
        return sum(token_count(m["content"]) for m in prompt.messages)

    print(f"database: {connection.vendor}; projects of {args.large} and {args.small} tasks, "
          f"week {windows.current.week.label}")
    big, sml = results["BIG"], results["SML"]
    print(f"weekly report SQL queries: {len(big[2])} on {args.large} tasks, {len(sml[2])} on {args.small} tasks"
          f" ({'equal' if len(big[2]) == len(sml[2]) else 'NOT EQUAL'})")
    largest = big[7]
    print(f"weekly report time on {args.large} tasks: {big[1]:.1f} ms; largest single query {largest:.1f} ms "
          f"(run again with every row fetched); "
          f"ratio {big[1] / largest:.1f}x  ({len(big[6]['tasks'])} task rows, {len(big[6]['events'])} history rows)")
    report = big[0]
    figures = "\n".join([f"{report_headline(report)}.", *figures_words(report.current),
                         f"the week before ({report.previous.week}):", *figures_words(report.previous)])
    # The rows inline, one compact JSON line each; counted line by line (the tokenizer caps one call).
    lines = [json.dumps(row, separators=(",", ":")) for rows in big[6].values() for row in rows]
    with_figures = prompt_tokens(figures)
    with_rows = prompt_tokens("") + sum(token_count(line + "\n") for line in lines)
    print(f"polish prompt tokens on {args.large} tasks: {with_figures} with the verified figures, "
          f"{with_rows} inlining the week's rows ({with_rows / with_figures:.0f}x)")
    risk_largest = big[8]
    print(f"risk scoring on {args.large} tasks: {big[4]:.1f} ms (largest query {risk_largest:.1f} ms), "
          f"{len(big[5])} SQL queries "
          f"({big[3].open_tasks} open tasks scored); on {args.small} tasks: {sml[4]:.1f} ms, {len(sml[5])} queries")


if __name__ == "__main__":
    main()
