"""Benchmark the artifact inspection tools against loading the whole content.

Creates a ~10 MB artifact of generated task rows (NDJSON) in a throwaway database and storage,
then measures time (best of several runs) and peak Python memory (tracemalloc) of head, search
and tail, each next to the naive way: read the whole file, decode it, and slice or scan it.

    .venv/bin/python bench/artifact_inspect.py [--mb 10] [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pm_assistant.vocabulary import STATUSES  # noqa: E402

WORDS = ("login", "Überprüfung", "数据 pipeline", "naïve café", "release", "deploy", "billing", "search")


def rows_of_size(megabytes: float) -> list[dict[str, Any]]:
    """Task-like rows whose NDJSON is about `megabytes` MB."""
    rows: list[dict[str, Any]] = []
    size, i = 0, 0
    while size < megabytes * 1024 * 1024:
        i += 1
        word = WORDS[i % len(WORDS)]
        row = {"id": i, "key": f"WEB-{i}", "title": f"Task {i}: {word} work", "status": STATUSES[i % len(STATUSES)],
               "priority": f"P{i % 4}", "due_date": f"2026-12-{1 + i % 28:02d}", "assignee": ("alice", "bob")[i % 2],
               "progress": i % 101, "project": "Website Redesign", "description": (f"{word} " * 40)[:150]}
        rows.append(row)
        size += 360
    return rows


def best_time(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def peak_bytes(fn: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(work: Path) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
    os.environ["ARTIFACT_ROOT"] = str(work / "artifacts")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from agent.artifacts.classify import result_classify
    from agent.artifacts.inspect import artifact_head, artifact_search, artifact_tail
    from agent.artifacts.store import artifact_open
    from agent.models import Artifact

    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench")
    rows = rows_of_size(args.mb)
    start = time.perf_counter()
    ref = result_classify(owner=user, tool="query_tasks", arguments={}, result={"count": len(rows), "items": rows},
                          project_ids=[]).ref
    classify_s = time.perf_counter() - start
    artifact = Artifact.objects.get(ref=ref)
    del rows

    def whole_text() -> str:
        with artifact_open(artifact) as fh:
            return fh.read().decode("utf-8")

    def naive_head() -> list[str]:
        return whole_text().splitlines()[:20]

    def naive_tail() -> list[str]:
        return whole_text().splitlines()[-20:]

    def naive_search(pattern: str) -> Callable[[], list[int]]:
        return lambda: [m.start() for m in re.finditer(re.escape(pattern), whole_text(), re.IGNORECASE)][:20]

    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("head 20 lines", lambda: artifact_head(user=user, ref=ref, lines=20), naive_head),
        ("tail 20 lines", lambda: artifact_tail(user=user, ref=ref, lines=20), naive_tail),
        ("search, frequent (stops at 20)", lambda: artifact_search(user=user, ref=ref, pattern="überprüfung"),
         naive_search("überprüfung")),
        ("search, absent (full scan)", lambda: artifact_search(user=user, ref=ref, pattern="no such words"),
         naive_search("no such words")),
    ]
    print(f"artifact {ref}: {artifact.size_bytes / 1024 / 1024:.1f} MB, {artifact.line_count} lines "
          f"(classified and stored in {classify_s * 1000:.0f} ms); best of {args.repeat} runs")
    header = (f"{'operation':32} {'tool ms':>9} {'naive ms':>9} {'time x':>7} "
              f"{'tool KiB':>9} {'naive KiB':>10} {'mem x':>7}")
    print(header)
    print("-" * len(header))
    for name, tool, naive in cases:
        tool_s, naive_s = best_time(tool, args.repeat), best_time(naive, args.repeat)
        tool_mem, naive_mem = peak_bytes(tool), peak_bytes(naive)
        print(f"{name:32} {tool_s * 1000:9.2f} {naive_s * 1000:9.2f} {naive_s / tool_s:6.1f}x "
              f"{tool_mem / 1024:9.0f} {naive_mem / 1024:10.0f} {naive_mem / tool_mem:6.1f}x")
    print("time x / mem x: how many times slower / larger the naive way is (above 1 = the tool wins).")


if __name__ == "__main__":
    # The throwaway database and artifacts live in one temporary directory, removed afterwards.
    work_dir = Path(tempfile.mkdtemp(prefix="artifact-bench-"))
    try:
        main(work_dir)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
