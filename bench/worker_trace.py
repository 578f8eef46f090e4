"""gunicorn settings for `bench/fresh_worker.py --trace`: the production settings (pm_assistant/gunicorn_conf.py)
with each step of a new worker's start and each request timed.

Every hook calls the production hook it stands in for and appends one line to the file named by
WORKER_TRACE_LOG: `pid unix-time cpu step [detail]`, where cpu is the processor time (ms) the worker's
threads have used since the fork (the kernel counts a child's from zero). The steps, in a worker's order:

    fork             post_fork begins (the first code a new worker runs)
    pool ready       post_fork returns: the database pool's first connection is ready
    accepting        post_worker_init returns: the worker is about to take requests
    request          pre_request: a request was read and is about to be served
    served           post_request; detail: the path, the minor page faults the request took and the
                     processor time (ms) of the thread that served it
"""
from __future__ import annotations

import os
import resource
import time
from typing import Any

from pm_assistant import gunicorn_conf as production
from pm_assistant.gunicorn_conf import (  # noqa: F401 - every production setting, unchanged
    accesslog,
    bind,
    on_starting,
    preload_app,
    raw_env,
    threads,
    timeout,
    worker_class,
    workers,
)

LOG = os.environ.get("WORKER_TRACE_LOG", os.devnull)


def _cpu_ms(who: int) -> float:
    usage = resource.getrusage(who)
    return 1000 * (usage.ru_utime + usage.ru_stime)


def _log(step: str) -> None:
    with open(LOG, "a") as out:
        out.write(f"{os.getpid()} {time.time():.6f} {_cpu_ms(resource.RUSAGE_SELF):.2f} {step}\n")


def post_fork(server: Any, worker: Any) -> None:
    _log("fork")
    production.post_fork(server, worker)
    _log("pool ready")


def post_worker_init(worker: Any) -> None:
    production.post_worker_init(worker)
    _log("accepting")


def pre_request(worker: Any, req: Any) -> None:
    production.pre_request(worker, req)
    req.trace_faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    req.trace_cpu = _cpu_ms(resource.RUSAGE_THREAD)
    _log("request")


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - getattr(req, "trace_faults", 0)
    cpu = _cpu_ms(resource.RUSAGE_THREAD) - getattr(req, "trace_cpu", 0.0)
    _log(f"served {req.path} {faults} {cpu:.2f}")
