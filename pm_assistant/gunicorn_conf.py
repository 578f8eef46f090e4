"""gunicorn settings of the production image (Dockerfile): a preloaded, warmed app in gthread workers.

Workers x threads come from `bench/load.py --compare` on the 2-core reference machine (README, Benchmarks):
each worker is a process holding the compiled graph and the tokenizer, threads overlap the time a
request waits on PostgreSQL, Redis or the model. GUNICORN_WORKERS / GUNICORN_THREADS override them.
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
    """Warm the preloaded app in the master, before any worker is forked."""
    from pm_assistant.warmup import warm_up

    warm_up()


def post_fork(server: Any, worker: Any) -> None:
    """Open the new worker's database pool; it takes requests once the first connection is ready
    (the master holds no connection)."""
    from pm_assistant.warmup import warm_database

    warm_database()
