"""Benchmark a fresh gunicorn worker's first request against a warm worker's, under the Dockerfile's command.

Seeds a fresh database (PostgreSQL next to DATABASE_URL, else SQLite in a temp dir) like bench/load.py,
starts the Dockerfile's gunicorn with one worker, logs in, then for `--rounds` rounds: stops the worker
(SIGTERM), waits for the master to fork a new one, and times the new worker's first request to each
page against the same request sent again right after (warm: the median of three, so that one quick or
slow repeat does not make the round's ratio). Prints each page's median first and warm times and the
median per-round ratio first/warm, and the share of rounds over 1.5x.

The first request is sent `--settle` seconds after the fork (default 1 s: the worker has started and
opened its database pool); with `--settle 0` it is sent within 2 ms of the fork (the master's list of
children is read that often), arrives while the worker is still starting, and its time includes the start.
`--trace` serves with bench/worker_trace.py (the same settings, each hook timed) and prints, per page, when
each step of the new worker's start and its first request happened after the fork, how much processor
time the worker had used by each step, and that request's minor page faults and processor time against
the ones after it.

    .venv/bin/python bench/fresh_worker.py [--rounds 7] [--tasks 1000] [--settle 1] [--pages my_overdue] [--trace]
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import SEED, dockerfile_command, served_process  # noqa: E402
from bench.outage import database, logged_in  # noqa: E402
from tests.gunicorn_server import manage, server_env  # noqa: E402

WARM_REPEATS = 3
PAGES = ["/", "/tasks/", "my_overdue"]  # two pages and the "my overdue" quick button
GOAL = 1.5  # the first request of a new worker at most this many times a warm one


def children(pid: int) -> set[int]:
    """The live child processes of pid (Linux /proc): the children list of its main thread, which forks
    gunicorn's workers (one small file, read every 2 ms), else a scan of every process's parent."""
    try:
        return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        pass
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def fresh_worker(master: int, old: set[int], settle: float) -> set[int]:
    """Stop the master's workers, wait until it has forked new ones, then `settle` seconds more."""
    for pid in old:
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        now = children(master)
        if now and not now & old:
            time.sleep(settle)
            return now
        time.sleep(0.002)
    raise RuntimeError("gunicorn did not start a new worker")


def ms(client: httpx.Client, method: str, url: str, **kwargs: object) -> float:
    start = time.perf_counter()
    response = client.request(method, url, **kwargs)  # type: ignore[arg-type]
    elapsed = (time.perf_counter() - start) * 1000
    assert response.is_success, (url, response.status_code)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds between the fork and the first request (0: it arrives while the worker starts)")
    parser.add_argument("--pages", nargs="+", choices=PAGES, default=PAGES, help="the requests to time")
    parser.add_argument("--trace", action="store_true",
                        help="serve with bench/worker_trace.py and print where each new worker's time went")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pm-worker-trace-") as folder:
        measure(args, Path(folder) / "trace.log")


def measure(args: argparse.Namespace, trace: Path) -> None:
    """Run the rounds and print the figures; with --trace, the workers log their steps to `trace`."""
    pages = args.pages
    sent: list[tuple[str, int, float]] = []  # (page, new worker's pid, when its first request was sent)
    first: dict[str, list[float]] = {p: [] for p in pages}
    warm: dict[str, list[float]] = {p: [] for p in pages}
    ratios: dict[str, list[float]] = {p: [] for p in pages}
    with database() as url:
        env = server_env(DATABASE_URL=url, LLM_PROVIDER="offline", CELERY_TASK_ALWAYS_EAGER="1",
                         GUNICORN_WORKERS="1", WORKER_TRACE_LOG=str(trace))
        manage(env, "migrate", "--noinput")
        manage(env, "shell", "-c", SEED.format(tasks=args.tasks))
        with served_process(env, config="bench.worker_trace" if args.trace else None) as (base, master):
            client = logged_in(base)
            api = {"X-CSRFToken": client.cookies.get("csrftoken") or ""}
            body = {"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}
            workers = children(master.pid)
            try:
                for _ in range(args.rounds):
                    for page in pages:
                        workers = fresh_worker(master.pid, workers, args.settle)

                        def request(page: str = page) -> float:
                            if page == "my_overdue":
                                return ms(client, "POST", "/api/assistant/requests/", json=body, headers=api)
                            return ms(client, "GET", page)

                        sent.append((page, min(workers), time.time()))
                        cold = request()
                        hot = statistics.median(request() for _ in range(WARM_REPEATS))
                        first[page].append(cold)
                        warm[page].append(hot)
                        ratios[page].append(cold / hot)
            finally:
                client.close()
    print(f"gunicorn ({' '.join(dockerfile_command()[1:])}; 1 worker), {args.tasks} tasks, {args.rounds} rounds, "
          f"database {url.split(':')[0]}, first request {args.settle:g} s after the fork, then the same request "
          f"{WARM_REPEATS} times (warm: their median)")
    for page in pages:
        cold, hot, ratio = (statistics.median(values[page]) for values in (first, warm, ratios))
        over = sum(r > GOAL for r in ratios[page])
        print(f"{page:<12} first {cold:8.1f} ms   warm {hot:8.1f} ms   median ratio first/warm {ratio:5.2f}x   "
              f"rounds over {GOAL:g}x: {over}/{len(ratios[page])}   per round: "
              + " ".join(f"{r:.2f}" for r in ratios[page]))
    if args.trace:
        print_trace(trace, sent, pages)


def print_trace(log: Path, sent: list[tuple[str, int, float]], pages: list[str]) -> None:
    """Each page's median time from the fork to each step of the worker's start and its first request
    (bench/worker_trace.py), the processor time the worker had used by then, and its first request's
    minor page faults and processor time against the requests after it."""
    steps: dict[int, dict[str, tuple[float, float]]] = {}  # pid -> step -> (unix time, worker's cpu ms)
    served: dict[int, list[tuple[int, float]]] = {}  # pid -> (faults, thread cpu ms) of each request
    for line in log.read_text().splitlines():
        pid, at, cpu, step = line.split(" ", 3)
        if step.startswith("served "):
            faults, own = step.rsplit(" ", 2)[1:]
            served.setdefault(int(pid), []).append((int(faults), float(own)))
            step = "served"
        steps.setdefault(int(pid), {}).setdefault(step, (float(at), float(cpu)))
    columns = ["sent", "pool ready", "accepting", "request", "served"]

    def median(values: list[float], scale: float = 1.0) -> str:
        return f"{scale * statistics.median(values):12.1f}" if values else f"{'-':>12}"

    rows = {page: [(steps[pid], served[pid], at) for name, pid, at in sent if name == page and pid in served]
            for page in pages}
    print("ms after the fork, median over the rounds (sent: the first request left the client):")
    print(f"{'':<12} " + " ".join(f"{c:>12}" for c in columns) + "   faults first / after")
    for page in pages:
        cells = [median([(at if column == "sent" else started[column][0]) - started["fork"][0]
                         for started, _, at in rows[page] if column == "sent" or column in started], 1000)
                 for column in columns]
        first = statistics.median(requests[0][0] for _, requests, _ in rows[page])
        after = statistics.median(faults for _, requests, _ in rows[page] for faults, _ in requests[1:])
        print(f"{page:<12} " + " ".join(cells) + f"   {first:.0f} / {after:.0f}")
    print("processor ms the worker had used by then (all its threads), median; its first request's own "
          "thread against the requests after it:")
    print(f"{'':<12} " + " ".join(f"{c:>12}" for c in columns[1:]) + "   request cpu first / after")
    for page in pages:
        cells = [median([started[column][1] for started, _, _ in rows[page] if column in started])
                 for column in columns[1:]]
        first_cpu = statistics.median(requests[0][1] for _, requests, _ in rows[page])
        after_cpu = statistics.median(own for _, requests, _ in rows[page] for _, own in requests[1:])
        print(f"{page:<12} " + " ".join(cells) + f"   {first_cpu:.1f} / {after_cpu:.1f}")


if __name__ == "__main__":
    main()
