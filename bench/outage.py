"""Benchmark the pages while the model is down: their p95 with a hung provider against a healthy one.

Serves the app with gunicorn on loopback (4 workers x 4 threads, as in production) against a
fresh PostgreSQL database next to DATABASE_URL (SQLite in a temp dir without one) and the
scripted LLM stub of the tests. In each phase, assistant clients keep sending free-text
requests (half a second apart each) while a page client measures GET / (the home workbench, logged in) and GET /login/.
In the outage phase every model call hangs; the call deadline and the circuit breaker (shared
through Redis when REDIS_URL is set) must keep the pages answering.

    .venv/bin/python bench/outage.py [--seconds 30] [--assistants 8]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.gunicorn_server import (  # noqa: E402
    create_user_with_token,
    fresh_postgres_database,
    gunicorn,
    manage,
    postgres_server_url,
    server_env,
)
from tests.llm_stub import Completion, Delay, LLMStub  # noqa: E402

THINK = 0.5
ROUTE = ('{"capability": "clarify", "confidence": 0.9, "slots": {"operation": null, "task_id": null, '
         '"title": null, "status": null, "priority": null, "due_date": null, "scope": null, '
         '"expected_title": null, "expected_status": null, "status_filter": [], "priority_filter": [], '
         '"assignee_me": false, "preset": null}}')


@contextmanager
def database() -> Iterator[str]:
    """A fresh database for one run: on DATABASE_URL's server, named after its database, else SQLite."""
    server = postgres_server_url()
    if server is not None:
        with fresh_postgres_database(server, prefix=f"{os.environ['DATABASE_URL'].rsplit('/', 1)[1]}_bench") as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{folder}/bench.sqlite3"


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 2 else values[0]


def logged_in(base: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=180)
    page = client.get("/login/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token, "no CSRF token on the login page"
    response = client.post("/login/", data={"username": "alice", "password": "demo",
                                            "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code in (200, 302), response.status_code
    return client


def phase(base: str, token: str, *, seconds: float, assistants: int) -> tuple[list[float], list[float], int]:
    """Measure page times for `seconds` while assistant clients send requests.

    Each assistant client waits THINK seconds between its requests, as a person would; returns
    (page times in ms, assistant times in s, assistant answers with a 5xx status).
    """
    stop = threading.Event()
    assistant_times: list[float] = []
    server_errors = [0]

    def assistant() -> None:
        with httpx.Client(base_url=base, timeout=180) as client:
            while not stop.is_set():
                started = time.monotonic()
                response = client.post("/api/assistant/requests/", headers={"Authorization": f"Token {token}"},
                                       json={"message": "what should I do next?",
                                             "page_context": {"page": "home", "origin": "sidebar"}})
                assistant_times.append(time.monotonic() - started)
                server_errors[0] += response.status_code >= 500
                stop.wait(THINK)

    workers = [threading.Thread(target=assistant, daemon=True) for _ in range(assistants)]
    for worker in workers:
        worker.start()
    time.sleep(1.0)  # let the assistant load build up first
    page_times: list[float] = []
    client = logged_in(base)
    until = time.monotonic() + seconds
    try:
        n = 0
        while time.monotonic() < until:
            n += 1
            started = time.monotonic()
            response = client.get("/" if n % 2 else "/login/")
            page_times.append((time.monotonic() - started) * 1000)
            assert response.status_code == 200, response.status_code
    finally:
        client.close()
    stop.set()
    for worker in workers:
        worker.join(timeout=60)
    return page_times, assistant_times, server_errors[0]


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    parser.add_argument("--assistants", type=int, default=8)
    args = parser.parse_args()
    with LLMStub() as stub, database() as url:
        env = server_env(DATABASE_URL=url, LLM_PROVIDER="openai", OPENAI_API_KEY="bench",
                         OPENAI_BASE_URL=stub.base_url, CELERY_TASK_ALWAYS_EAGER="1")
        say("migrating a fresh database")
        manage(env, "migrate", "--noinput")
        token = create_user_with_token(env)
        with gunicorn(env, workers=4, threads=4) as base:
            say(f"serving on {base}; warming up")
            stub.default = Completion(ROUTE)
            phase(base, token, seconds=5, assistants=args.assistants)  # warm-up: every worker imports and connects
            say("healthy phase")
            normal, normal_assistant, normal_errors = phase(base, token, seconds=args.seconds,
                                                            assistants=args.assistants)
            stub.default = Delay(600, Completion(ROUTE))  # every model call hangs
            say("outage phase")
            outage, outage_assistant, outage_errors = phase(base, token, seconds=args.seconds,
                                                            assistants=args.assistants)
    print(f"cache shared by workers: {'Redis' if 'REDIS_URL' in env else 'no (per-worker breaker)'}")
    print(f"pages, healthy model: p95 {p95(normal):.0f} ms, median {statistics.median(normal):.0f} ms "
          f"({len(normal)} requests)")
    print(f"pages, hung model:    p95 {p95(outage):.0f} ms, median {statistics.median(outage):.0f} ms "
          f"({len(outage)} requests)")
    print(f"ratio of p95s: {p95(outage) / p95(normal):.2f} (must stay within 2)")
    print(f"assistant, healthy: {len(normal_assistant)} requests, p95 {p95(normal_assistant):.2f} s, "
          f"{normal_errors} 5xx")
    print(f"assistant, hung: {len(outage_assistant)} requests, max {max(outage_assistant):.2f} s, "
          f"p95 {p95(outage_assistant):.2f} s, {outage_errors} 5xx")


if __name__ == "__main__":
    main()
