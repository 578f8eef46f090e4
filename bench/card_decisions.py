"""Benchmark deciding a card in the sidebar against a quick action that needs no card, interleaved.

Creates a throwaway database (bench/throwaway_db.py), seeds `--tasks` tasks, then times in one
process, in rounds whose order alternates:

- reject_delete: the task page's Delete task button, then Reject on its card (the decision alone is timed);
- approve_plan:  Break down on a task whose description lists three steps, then Approve (the decision
  alone: three subtasks written, each re-checked against the database first);
- refresh:       the task page the sidebar fetches after a plan changed its subtasks (tasks-changed);
- mark_done:     the reference, the Mark done button (a whole run: route, write, trace, reply).

Each figure is the median over the rounds, and the ratio the median of the per-round ratios to
mark_done, so drift of a shared machine between rounds cancels out. Requests go through
django.test.Client in-process with the htmx header, as the sidebar sends them.

    .venv/bin/python bench/card_decisions.py [--rounds 20] [--tasks 400]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pm_bench .venv/bin/python bench/card_decisions.py
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.quick_button_vs_api import seed  # noqa: E402
from bench.throwaway_db import throwaway_database  # noqa: E402

HTMX = {"HTTP_HX_REQUEST": "true"}
_CONFIRM = re.compile(r"/assistant/runs/([0-9a-f-]{36})/confirm/")
_CARD = re.compile(r'"confirmation_id": "([^"]+)"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tasks", type=int, default=400)
    args = parser.parse_args()

    with throwaway_database("cards"):
        from django.db import connection
        from django.test import Client

        from tasks.models import Task

        alice = seed(args.tasks)
        client = Client()
        client.force_login(alice)
        todo = iter(Task.objects.filter(status="todo", parent__isnull=True).order_by("pk")
                    .values_list("pk", flat=True)[: 4 * args.rounds + 8])

        def button(action: str, task_id: int) -> str:
            context = {"page": "task_detail", "origin": "quick_button", "routeParams": {"taskId": task_id},
                       "selectedEntity": {"type": "task", "id": task_id}}
            response = client.post("/assistant/request/", {"action": action, "page_context": json.dumps(context)},
                                   **HTMX)
            assert response.status_code == 200, response.content[:300]
            return response.content.decode()

        def decide(html: str, decision: str) -> float:
            run_id, card = _CONFIRM.search(html), _CARD.search(html)
            assert run_id and card, html[:300]
            start = time.perf_counter()
            response = client.post(f"/assistant/runs/{run_id.group(1)}/confirm/",
                                   {"decision": decision, "confirmation_id": card.group(1)}, **HTMX)
            elapsed = (time.perf_counter() - start) * 1000
            assert response.status_code == 200 and "run-done" in response.content.decode(), response.content[:300]
            return elapsed

        def reject_delete() -> float:
            return decide(button("delete_task", next(todo)), "reject")

        planned: list[int] = []

        def approve_plan() -> float:
            task_id = next(todo)
            Task.objects.filter(pk=task_id).update(description="- Draft it\n- Review it\n- Ship it")
            planned.append(task_id)
            return decide(button("decompose_task", task_id), "approve")

        def refresh() -> float:
            start = time.perf_counter()
            response = client.get(f"/tasks/{planned[-1]}/")
            assert response.status_code == 200
            return (time.perf_counter() - start) * 1000

        def mark_done() -> float:
            task_id = next(todo)
            start = time.perf_counter()
            html = button("mark_done", task_id)
            assert "run-done" in html, html[:300]
            return (time.perf_counter() - start) * 1000

        measured: dict[str, Callable[[], float]] = {"reject_delete": reject_delete, "approve_plan": approve_plan,
                                                    "refresh": refresh, "mark_done": mark_done}
        for fn in measured.values():  # warm up: imports, templates, the checkpoint tables
            fn()
        times: dict[str, list[float]] = {name: [] for name in measured}
        order = list(measured)
        for i in range(args.rounds):
            for name in order if i % 2 == 0 else order[::-1]:
                times[name].append(measured[name]())
        vendor = connection.vendor

    reference = times["mark_done"]
    print(f"database: {vendor}, {args.tasks} tasks, {args.rounds} interleaved rounds, "
          "django.test.Client in-process, offline model")
    for name, values in times.items():
        ratio = statistics.median(v / r for v, r in zip(values, reference, strict=True))
        print(f"{name:<14} median {statistics.median(values):8.1f} ms   max {max(values):8.1f} ms   "
              f"{ratio:5.2f}x mark_done")


if __name__ == "__main__":
    main()
