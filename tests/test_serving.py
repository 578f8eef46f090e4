"""Serving: the image's gunicorn preloads and warms the app in the master; connections persist."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import connections

from agent.context import tokens
from agent.graph import graph
from pm_assistant import gunicorn_conf
from pm_assistant.warmup import warm_up

ROOT = Path(__file__).resolve().parent.parent


def test_the_dockerfile_serves_with_the_preloading_config() -> None:
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD "))
    assert json.loads(cmd[4:]) == ["gunicorn", "pm_assistant.wsgi:application", "--config",
                                   "python:pm_assistant.gunicorn_conf"]
    assert gunicorn_conf.preload_app is True and gunicorn_conf.worker_class == "gthread"
    assert gunicorn_conf.workers >= 1 and gunicorn_conf.threads >= 1


def test_warm_up_builds_the_graph_and_tokenizer_and_leaves_no_connection() -> None:
    graph.compiled_graph.cache_clear()
    tokens._encoding.cache_clear()
    # Earlier tests in this process may hold connections; warm-up must not leave a new one open.
    before = {c.alias for c in connections.all(initialized_only=True) if c.connection is not None}
    warm_up()
    assert graph.compiled_graph.cache_info().currsize == 1
    assert tokens._encoding.cache_info().currsize == 1
    after = {c.alias for c in connections.all(initialized_only=True) if c.connection is not None}
    assert after <= before


def test_the_master_freezes_its_warmed_objects_before_forking_workers(monkeypatch: Any) -> None:
    """After on_starting the warmed objects are out of the collector's reach: a worker's collections skip them."""
    import gc

    from pm_assistant import warmup

    monkeypatch.setattr(warmup, "rehearse_quick_button", lambda: None)
    gc.unfreeze()
    try:
        gunicorn_conf.on_starting(server=None)
        frozen = gc.get_freeze_count()
        tracked = len(gc.get_objects())  # the objects a collection would still walk
    finally:
        gc.unfreeze()
    assert frozen > 50_000 and tracked < frozen / 10


def test_database_connections_persist_with_health_checks(settings: Any) -> None:
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] > 0
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_warm_up_compiles_the_page_templates_into_the_cached_loader() -> None:
    from django.template import engines

    loader = engines["django"].engine.template_loaders[0]  # type: ignore[attr-defined]
    loader.reset()
    warm_up()
    assert {"home.html", "tasks/list.html", "projects/detail.html", "tasks/_bits.html"} <= set(
        loader.get_template_cache)


def test_gunicorn_pools_a_connection_per_thread_unless_told_otherwise(monkeypatch: Any) -> None:
    import importlib

    monkeypatch.delenv("DB_POOL_SIZE", raising=False)
    assert importlib.reload(gunicorn_conf).raw_env == [f"DB_POOL_SIZE={gunicorn_conf.threads}"]
    monkeypatch.setenv("DB_POOL_SIZE", "0")
    assert importlib.reload(gunicorn_conf).raw_env == []


def test_warm_database_without_a_pool_does_nothing(db: Any, django_assert_num_queries: Any) -> None:
    from pm_assistant.warmup import warm_database

    with django_assert_num_queries(0):
        warm_database()


def test_warm_up_leaves_a_new_process_nothing_to_compile_on_its_first_request() -> None:
    """In a process of its own, so nothing earlier has done the work: URL patterns, models' field caches,
    Django's lazily compiled regexes (on modules and on classes), the message storage and the date formats
    are all ready after warm_up()."""
    import os
    import subprocess
    import sys

    probe = """
import sys
import django
django.setup()
from django.apps import apps
from django.urls import URLResolver, get_resolver
from django.http import request
from django.utils import formats
from django.utils.functional import empty

def patterns(resolver):
    for entry in resolver.url_patterns:
        yield entry
        if isinstance(entry, URLResolver):
            yield from patterns(entry)

def report():
    compiled = sum("regex" in entry.pattern.__dict__ for entry in patterns(get_resolver()))
    models = sum("related_objects" in m._meta.__dict__ for m in apps.get_models())
    lazy = request.host_validation_re._wrapped is not empty
    compiler = sys.modules.get("django.db.models.sql.compiler")
    on_class = compiler is not None and compiler.SQLCompiler.ordering_parts._wrapped is not empty
    return (compiled, models, lazy, "django.contrib.messages.storage.fallback" in sys.modules, on_class,
            bool(formats._format_modules_cache))

print(*report())
from pm_assistant.warmup import warm_up
warm_up()
print(*report(), sum(1 for _ in patterns(get_resolver())), len(apps.get_models()))
"""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "pm_assistant.settings"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split("\n")
    before, after = out[-3].split(), out[-2].split()
    assert before[2:] == ["False"] * 4 and int(before[0]) < int(after[6])
    assert after[0] == after[6] and after[1] == after[7] and after[2:6] == ["True"] * 4


def test_warm_up_builds_the_database_pool_without_opening_it() -> None:
    """What a worker would build as it starts, the master builds: the pool object and the statement each
    of its connections runs as it opens; no connection is opened and the pool is not started."""
    import os
    import subprocess
    import sys

    from tests.service_checks import skip_or_fail

    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        skip_or_fail("DATABASE_URL is not PostgreSQL: the connection pool is PostgreSQL's")
    probe = """
import django
django.setup()
from django.db import connections
from pm_assistant import warm_connection
from pm_assistant.warmup import warm_up
warm_up()
pool = connections["default"]._connection_pools.get("default")
print(type(pool).__name__, pool.closed, connections["default"].connection is None,
      warm_connection.every_table.cache_info().currsize)
"""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "pm_assistant.settings", "DB_POOL_SIZE": "2"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out[-4:] == ["ConnectionPool", "True", "True", "1"]


def test_warm_up_reverses_every_named_url() -> None:
    """Each name is reversed once (compiling the regex its reversal checks against): a converter with no
    sample value would leave its names for the first request."""
    from django.urls import get_resolver

    from pm_assistant.warmup import _url_reversals

    names = [key for key in get_resolver().reverse_dict if isinstance(key, str)]
    assert _url_reversals() == len(names) > 30


def _keeps_alive(response: Any) -> bool:
    return str(response.headers.get("connection", "keep-alive")).lower() != "close"


def test_a_worker_holding_more_connections_than_threads_closes_each_after_answering(tmp_path: Path) -> None:
    """The image's gunicorn, one worker with two threads: two kept-alive clients stay, a third client's
    connection is answered with "Connection: close" (its next request reconnects), and once it is gone the
    two are kept again. Without the config's pre_request every connection would be kept."""
    import time

    import httpx

    from tests.gunicorn_server import gunicorn, server_env

    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", LLM_PROVIDER="offline",
                     GUNICORN_ACCESS_LOG="/dev/null")

    def until_kept(client: httpx.Client) -> httpx.Response:
        """The server may not have counted a closed connection out yet: ask again for up to 10 s."""
        deadline = time.monotonic() + 10
        while True:
            response = client.get("/login/")
            if _keeps_alive(response) or time.monotonic() > deadline:
                return response
            time.sleep(0.05)

    with gunicorn(env, workers=1, threads=2, config=True) as base:
        first, second, third = (httpx.Client(base_url=base, timeout=30) for _ in range(3))
        try:
            # The start-up probe's connection may still be counted: wait until it is not.
            assert _keeps_alive(until_kept(first)) and _keeps_alive(until_kept(second))
            crowded = third.get("/login/")
            assert crowded.status_code == 200 and not _keeps_alive(crowded)
            # Its next request is served on a new connection, and closed again while all three are open.
            again = third.get("/login/")
            assert again.status_code == 200 and not _keeps_alive(again)
            third.close()
            assert _keeps_alive(until_kept(first)) and _keeps_alive(until_kept(second))
        finally:
            for client in (first, second, third):
                client.close()


def test_pre_request_counts_connections_against_threads() -> None:
    """Exactly above the thread count: a worker with as many connections as threads keeps them."""
    from types import SimpleNamespace

    def closes(connections: int, threads: int = 4) -> bool:
        worker = SimpleNamespace(nr_conns=connections, cfg=SimpleNamespace(threads=threads))
        request = SimpleNamespace(must_close=False)
        gunicorn_conf.pre_request(worker, request)
        return request.must_close

    assert [closes(n) for n in (1, 4, 5, 9)] == [False, False, True, True]
    # A worker class without a connection count (sync) is left alone.
    request = SimpleNamespace(must_close=False)
    gunicorn_conf.pre_request(SimpleNamespace(cfg=SimpleNamespace(threads=1)), request)
    assert request.must_close is False


def test_the_master_rehearses_and_freezes_before_it_binds_and_each_worker_opens_its_pool(monkeypatch: Any) -> None:
    """The order of on_starting (gunicorn binds after it) and of a new worker's start."""
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace

    import pm_assistant.warmup as warmup

    called: list[str] = []
    for name in ("warm_up", "rehearse_quick_button", "release_connections", "freeze_for_fork", "warm_database"):
        monkeypatch.setattr(warmup, name, lambda name=name: called.append(name))
    gunicorn_conf.on_starting(server=None)
    assert called == ["warm_up", "rehearse_quick_button", "release_connections", "freeze_for_fork"]
    assert not hasattr(gunicorn_conf, "when_ready")  # nothing left to do once the port is open
    called.clear()
    gunicorn_conf.post_fork(server=None, worker=None)
    assert called == ["warm_database"]
    # The worker's first request thread is started before a request needs it.
    with ThreadPoolExecutor(max_workers=4) as tpool:
        gunicorn_conf.post_worker_init(worker=SimpleNamespace(tpool=tpool))
        assert len(tpool._threads) == 1
    gunicorn_conf.post_worker_init(worker=SimpleNamespace())  # a sync worker: nothing to start


def test_the_benchmark_trace_settings_are_the_production_ones_with_each_step_timed(
        tmp_path: Path, monkeypatch: Any) -> None:
    """bench/worker_trace.py serves exactly as pm_assistant/gunicorn_conf.py, each hook calling the
    production one, and logs the steps bench/fresh_worker.py --trace reads."""
    from types import SimpleNamespace

    import bench.worker_trace as trace

    settings = {name for name, value in vars(gunicorn_conf).items()
                if not name.startswith("_") and not isinstance(value, type(gunicorn_conf))
                and getattr(value, "__module__", gunicorn_conf.__name__) == gunicorn_conf.__name__}
    assert {"bind", "workers", "threads", "preload_app", "on_starting", "post_fork", "pre_request"} <= settings
    for name in settings - {"post_fork", "post_worker_init", "pre_request"}:
        assert getattr(trace, name) == getattr(gunicorn_conf, name), name
    called: list[str] = []
    monkeypatch.setattr(trace, "LOG", str(tmp_path / "trace.log"))
    monkeypatch.setattr(gunicorn_conf, "post_fork", lambda server, worker: called.append("post_fork"))
    monkeypatch.setattr(gunicorn_conf, "post_worker_init", lambda worker: called.append("post_worker_init"))
    monkeypatch.setattr(gunicorn_conf, "pre_request", lambda worker, req: called.append("pre_request"))
    request = SimpleNamespace(path="/tasks/")
    trace.post_fork(server=None, worker=None)
    trace.post_worker_init(worker=None)
    trace.pre_request(worker=None, req=request)
    trace.post_request(worker=None, req=request, environ={}, resp=None)
    assert called == ["post_fork", "post_worker_init", "pre_request"]
    lines = [line.split(" ", 3) for line in (tmp_path / "trace.log").read_text().splitlines()]
    assert [step for *_, step in lines[:4]] == ["fork", "pool ready", "accepting", "request"]
    # Each step carries the processor time the process has used: it only grows.
    used = [float(cpu) for _, _, cpu, _ in lines]
    assert used == sorted(used) and used[0] > 0
    # The request's own thread time: a part of the process's (the two are read a moment apart, so only
    # the whole is a bound that cannot be crossed).
    path, faults, own = lines[4][3].removeprefix("served ").split(" ")
    assert path == "/tasks/" and int(faults) >= 0 and 0 <= float(own) <= used[4]


def test_the_image_server_opens_its_port_only_after_the_warm_up(tmp_path: Path) -> None:
    """gunicorn warms the app before it binds (on_starting): a client connecting during the warm-up is refused,
    not queued behind it, and the health check passes only on a warm server."""
    import socket
    import subprocess
    import sys
    import time

    from tests.gunicorn_server import free_port, manage, server_env

    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", LLM_PROVIDER="offline",
                     CELERY_TASK_ALWAYS_EAGER="1", LOG_LEVEL="INFO", GUNICORN_WORKERS="1",
                     GUNICORN_ACCESS_LOG="/dev/null", AGENT_CHECKPOINT_SQLITE_PATH=str(tmp_path / "ckpt.sqlite"))
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--noinput")
    port = free_port()
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "pm_assistant.wsgi:application", "--config",
             "python:pm_assistant.gunicorn_conf", "--bind", f"127.0.0.1:{port}", "--no-control-socket",
             "--log-level", "info"], cwd=ROOT, env=env, stdout=out, stderr=out)
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline, log.read_text()
                    time.sleep(0.05)
        finally:
            # A worker stopped while it still starts may miss the TERM (its signal handlers are not set up
            # yet) and the master then waits out its graceful timeout: the shutdown is not what is tested.
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=30)
    lines = log.read_text().splitlines()
    warmed = next(i for i, line in enumerate(lines) if "warmed up in" in line)
    listening = next(i for i, line in enumerate(lines) if "Listening at" in line)
    assert warmed < listening, lines
