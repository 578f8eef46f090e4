"""Benchmark the first request after a server starts against a warm one, under the Dockerfile's command.

Seeds a fresh database (PostgreSQL next to DATABASE_URL, else SQLite in a temp dir) like bench/load.py, then
for `--rounds` rounds starts the Dockerfile's gunicorn (3 workers unless GUNICORN_WORKERS says otherwise),
tries to connect every millisecond and, once the server is ready, sends the first request; then the same
request three times more (warm: their median), and stops the server. "Ready" is `--wait port` (the port
accepts a connection: a client that does not wait for anything) or `--wait health` (GET /healthz answers
200, asked every 10 ms once the port accepts: what docker compose's proxy waits for). Prints the time from
the start to the open port, the first and warm times and the median per-round ratio first/warm (the goal:
at most 2x).

Several `--config` values (gunicorn config modules or files) or `--wait` values take turns, A B A B; with
several configs the last lines are each one's median per-round ratio of first requests to the first config's.

    .venv/bin/python bench/first_request.py [--rounds 7] [--tasks 1000] [--request my_overdue|tasks]
        [--wait port health] [--config python:pm_assistant.gunicorn_conf other_conf.py]
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import SEED, dockerfile_command  # noqa: E402
from bench.outage import database  # noqa: E402
from tests.gunicorn_server import free_port, manage, server_env  # noqa: E402

WARM_REPEATS = 3
GOAL = 2.0
REQUESTS = {
    "my_overdue": ("POST", "/api/assistant/requests/",
                   {"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}),
    "tasks": ("GET", "/api/tasks/?page_size=25", None),
}


def _port_open(port: int, deadline: float, process: subprocess.Popen[bytes]) -> float:
    """Try to connect every millisecond; return when the port first accepted (perf_counter)."""
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return time.perf_counter()
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("gunicorn ended before it listened") from None
            time.sleep(0.001)
    raise RuntimeError("gunicorn did not listen in time")


def _healthy(client: httpx.Client, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            if client.get("/healthz").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.01)
    raise RuntimeError("the server never reported healthy")


def one_start(env: dict[str, str], config: str, wait: str, token: str, request: str) -> tuple[float, float, float]:
    """Start the server, time its first request and a warm one; return (s to the open port, first ms, warm ms)."""
    port = free_port()
    argv = dockerfile_command()
    argv[argv.index("--config") + 1] = config
    command = [sys.executable, "-m", "gunicorn", *argv[1:], "--no-control-socket"]
    method, path, body = REQUESTS[request]
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120,
                          headers={"Authorization": f"Token {token}"})
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=ROOT, env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}"},  # noqa: S603
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        opened = _port_open(port, time.monotonic() + 180, process)
        if wait == "health":
            with httpx.Client(base_url=client.base_url, timeout=10) as probe:
                _healthy(probe, time.monotonic() + 60)

        def timed() -> float:
            begin = time.perf_counter()
            response = client.request(method, path, json=body)
            assert response.is_success, (path, response.status_code, response.text[:200])
            return (time.perf_counter() - begin) * 1000

        first = timed()
        warm = statistics.median(timed() for _ in range(WARM_REPEATS))
        return opened - started, first, warm
    finally:
        client.close()
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--request", choices=sorted(REQUESTS), default="my_overdue")
    parser.add_argument("--config", nargs="+", default=[dockerfile_command()[-1]],
                        help="gunicorn config modules (python:...) or files; several take turns")
    parser.add_argument("--wait", nargs="+", choices=["port", "health"], default=["port"],
                        help="send the first request once the port accepts, or once /healthz answers 200")
    args = parser.parse_args()
    turns = [(config, wait) for config in args.config for wait in args.wait]
    results: dict[tuple[str, str], list[tuple[float, float, float]]] = {turn: [] for turn in turns}
    with database() as url:
        env = server_env(DATABASE_URL=url, LLM_PROVIDER="offline", CELERY_TASK_ALWAYS_EAGER="1",
                         GUNICORN_ACCESS_LOG="/dev/null")
        manage(env, "migrate", "--noinput")
        token = manage(env, "shell", "-c", SEED.format(tasks=args.tasks)).strip().splitlines()[-1].split()[0]
        for _ in range(args.rounds):
            for config, wait in turns:
                results[config, wait].append(one_start(env, config, wait, token, args.request))
    workers = os.environ.get("GUNICORN_WORKERS", "3")
    print(f"gunicorn ({' '.join(dockerfile_command()[1:-2])} --config …; {workers} workers), {args.tasks} tasks, "
          f"database {url.split(':')[0]}, {args.rounds} starts per config, request {args.request}: the first once "
          f"ready (the port accepts, or /healthz answers), then {WARM_REPEATS} more (warm: their median)")
    for (config, wait), rows in results.items():
        ratios = [first / warm for _, first, warm in rows]
        over = sum(ratio > GOAL for ratio in ratios)
        print(f"{config} after the {wait:<6} port open after {statistics.median(s for s, _, _ in rows):5.2f} s   "
              f"first {statistics.median(f for _, f, _ in rows):7.1f} ms   "
              f"warm {statistics.median(w for _, _, w in rows):6.1f} ms   "
              f"median ratio first/warm {statistics.median(ratios):5.2f}x   over {GOAL:g}x: {over}/{len(rows)}   "
              f"per start: " + " ".join(f"{ratio:.2f}" for ratio in ratios))
    for config, wait in turns[len(args.wait):]:
        base = results[args.config[0], wait]
        per_round = [row[1] / first[1] for row, first in zip(results[config, wait], base, strict=True)]
        print(f"first request after the {wait}, {config} / {args.config[0]}: median per-round ratio "
              f"{statistics.median(per_round):.2f} (" + " ".join(f"{r:.2f}" for r in per_round) + ")")


if __name__ == "__main__":
    main()
