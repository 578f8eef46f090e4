"""gunicorn settings of the production image (Dockerfile): a preloaded, warmed app in gthread workers.

Workers x threads come from `bench/load.py --compare` on the 2-core reference machine (docs/PERFORMANCE.md, Benchmarks):
each worker is a process holding the compiled graph and the tokenizer, threads overlap the time a
request waits on PostgreSQL, Redis or the model. GUNICORN_WORKERS / GUNICORN_THREADS override them.

A kept-alive connection stays with the worker that accepted it. pre_request below keeps that from
crowding one worker while the others idle.
"""
from __future__ import annotations

import logging
import os
import time
from typing import Any

logger = logging.getLogger(__name__)

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


def on_starting(server: Any) -> None:
    """Warm the preloaded app in the master before it opens its port: no request waits for the warm-up.

    gunicorn runs this hook before it binds; a client that connects earlier is refused, as by a server not
    yet started, rather than queued behind the warm-up (a first request used to wait seconds in the backlog).
    The master imports and builds the request path's lazy parts (warm_up), presses one quick button
    itself, rolled back (rehearse_quick_button: what the path builds on first use is built here, once, and
    inherited), closes what that opened, and freezes its objects for the collector.
    """
    from pm_assistant.warmup import freeze_for_fork, rehearse_quick_button, release_connections, warm_up

    started = time.monotonic()
    warm_up()
    rehearse_quick_button()
    release_connections()
    freeze_for_fork()
    logger.info("warmed up in %.1f s: opening the port", time.monotonic() - started)


def post_fork(server: Any, worker: Any) -> None:
    """Open the worker's database pool; it takes requests once the first connection is ready."""
    from pm_assistant.warmup import warm_database

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
