"""gunicorn settings of the production image (Dockerfile): a preloaded, warmed app in gthread workers.

Workers x threads come from `bench/load.py --compare` on the 2-core reference machine (docs/PERFORMANCE.md, Benchmarks):
each worker is a process holding the compiled graph and the tokenizer, threads overlap the time a
request waits on PostgreSQL, Redis or the model. GUNICORN_WORKERS / GUNICORN_THREADS override them.

A kept-alive connection stays with the worker that accepted it. pre_request below keeps that from
crowding one worker while the others idle.
"""
from __future__ import annotations

import os
from typing import Any

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
# A thread holds at most one database connection: a pool of as many per worker (settings.DB_POOL_SIZE),
# opened and warmed by post_fork below. gunicorn sets raw_env before it preloads the app; a
# DB_POOL_SIZE of the environment (0: no pool) wins.
raw_env = [] if "DB_POOL_SIZE" in os.environ else [f"DB_POOL_SIZE={threads}"]
# The app is imported once in the master and forked: workers start with it in memory (copy on write).
preload_app = True
timeout = 120
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")


def when_ready(server: Any) -> None:
    """Warm the preloaded app in the master and learn the pages a worker's first request writes, before
    any worker is forked.

    The master imports and builds the request path's lazy parts (warm_up), presses one quick button
    itself, rolled back (rehearse_quick_button: what the path builds on first use is built here, once, and
    inherited), closes what that opened, and freezes its objects for the collector. A probe forked like a
    worker then presses the button again to find the shared pages a first request copies (pm_assistant/prefault.py).
    """
    from pm_assistant import prefault
    from pm_assistant.warmup import (
        freeze_for_fork,
        rehearse_quick_button,
        release_connections,
        warm_database,
        warm_up,
    )

    warm_up()
    rehearse_quick_button()
    release_connections()
    freeze_for_fork()

    def first_request() -> None:
        warm_database()
        rehearse_quick_button()

    prefault.learn(first_request, after=release_connections)


def post_fork(server: Any, worker: Any) -> None:
    """Copy the pages the first request would write (in a thread, off the interpreter lock) while the
    worker opens its database pool; it takes requests once the first connection is ready."""
    from pm_assistant import prefault
    from pm_assistant.warmup import warm_database

    prefault.start()
    warm_database()


def post_worker_init(worker: Any) -> None:
    """Start the worker's first request thread now: the thread pool starts one as a request arrives.
    A worker class without a thread pool (sync, chosen with gunicorn's -k) is left alone."""
    tpool = getattr(worker, "tpool", None)
    if tpool is not None:
        tpool.submit(lambda: None)


def pre_request(worker: Any, req: Any) -> None:
    """Answer with "Connection: close" while this worker holds more connections than it has threads.

    gthread accepts every connection and keeps it alive, so a client stays with the worker that first
    accepted it. Clients that arrive together often land on one worker, whose requests then wait for a
    thread and share one interpreter lock while the other workers sit idle (bench/load.py printed 6 of
    8 clients on one of three workers). Closing the connection after this response sends the client's
    next request to whichever worker accepts it. A worker with a thread for each connection keeps them all.
    """
    if getattr(worker, "nr_conns", 0) > worker.cfg.threads:
        req.must_close = True
