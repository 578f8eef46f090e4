"""Benchmark the artifact inspection tools against loading the whole content.

Creates a ~10 MB artifact of generated task rows (NDJSON) in a throwaway database and storage,
then measures time (best of several runs) and peak Python memory (tracemalloc) of head, search
and tail, each next to the naive way: read the whole file, decode it, and slice or scan it.
Then the same rows stored at a known version, so they get their index: what a search through the
index reads (SQL statements and bytes of the stored file), which stays the same whatever the size.

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
    index_reads(user, args.mb, args.repeat)


def index_reads(user: Any, megabytes: float, repeat: int) -> None:
    """A search through the index of a 1 MB and of a `megabytes` MB artifact: statements, bytes read, time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from agent.artifacts import inspect
    from agent.artifacts.classify import result_classify
    from tasks.revision import task_revision

    opened = inspect.artifact_open
    read = [0]

    class Counting:
        def __init__(self, fh: Any) -> None:
            self.fh = fh

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: Any) -> None:
            self.fh.close()

        def seek(self, *args: Any) -> int:
            return int(self.fh.seek(*args))

        def read(self, size: int = -1) -> bytes:
            data: bytes = self.fh.read(size)
            read[0] += len(data)
            return data

    inspect.artifact_open = lambda artifact: Counting(opened(artifact))  # type: ignore[assignment,return-value]
    print("\nsearch through the index (a frequent and an absent text):")
    header = f"{'artifact':>9} {'rows':>7} {'pattern':>12} {'hits':>5} {'statements':>11} {'bytes read':>11} {'ms':>7}"
    print(header)
    print("-" * len(header))
    for size in sorted({1.0, megabytes}):
        rows = rows_of_size(size)
        ref = result_classify(owner=user, tool="query_tasks", arguments={}, result={"count": len(rows), "items": rows},
                              project_ids=[], source_version=task_revision()).ref
        for pattern in ("release", "no such words"):
            read[0] = 0
            with CaptureQueriesContext(connection) as queries:
                answer = inspect.artifact_search(user=user, ref=ref, pattern=pattern)
            assert answer["index"] == "fresh"
            took = best_time(lambda: inspect.artifact_search(user=user, ref=ref, pattern=pattern), repeat)  # noqa: B023
            print(f"{size:7.1f}MB {len(rows):7d} {pattern[:12]:>12} {answer['hit_count']:5d} "
                  f"{len(queries.captured_queries):11d} {read[0]:11d} {took * 1000:7.2f}")
    inspect.artifact_open = opened  # type: ignore[assignment]


if __name__ == "__main__":
    # The throwaway database and artifacts live in one temporary directory, removed afterwards.
    work_dir = Path(tempfile.mkdtemp(prefix="artifact-bench-"))
    try:
        main(work_dir)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
