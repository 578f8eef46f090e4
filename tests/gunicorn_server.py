"""Run the app as production does (gunicorn on loopback) against a database made for the occasion."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent


def postgres_server_url() -> str | None:
    """The PostgreSQL server of DATABASE_URL without its database name, or None when not on PostgreSQL."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    return url.rsplit("/", 1)[0]


@contextmanager
def fresh_postgres_database(server_url: str, prefix: str = "pm_fresh") -> Iterator[str]:
    """Create an empty database, yield its URL, and drop it afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield f"{server_url}/{name}"
    finally:
        with psycopg.connect(f"{server_url}/postgres", autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextmanager
def migrated_app_database(reason: str, *, prefix: str = "pm_fresh",
                          **overrides: str) -> Iterator[tuple[str, dict[str, str], str] | None]:
    """A fresh, migrated PostgreSQL database with alice and her project: yield its URL, the server
    environment (offline model, eager Celery, no Redis, plus overrides) and alice's API token.

    Not on PostgreSQL: skipped (a failure where services are required), yielding None.
    """
    from tests.service_checks import skip_or_fail

    server = postgres_server_url()
    if server is None:
        skip_or_fail(f"DATABASE_URL is not PostgreSQL: {reason}")
        yield None
        return
    with fresh_postgres_database(server, prefix=prefix) as url:
        env = server_env(DATABASE_URL=url, LLM_PROVIDER="offline", CELERY_TASK_ALWAYS_EAGER="1", **overrides)
        env.pop("REDIS_URL", None)
        manage(env, "migrate", "--noinput")
        yield url, env, create_user_with_token(env)


def manage(env: dict[str, str], *args: str) -> str:
    """Run manage.py with the given environment; return its output, failing loudly."""
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def server_env(**overrides: str) -> dict[str, str]:
    """The current environment without test-only variables, plus the overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_SETTINGS"))}
    env.update({"DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING", **overrides})
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def gunicorn(env: dict[str, str], *, workers: int = 2, threads: int = 4, timeout: int = 120,
             config: bool = False) -> Iterator[str]:
    """Serve the app with gunicorn on a free loopback port; yield its base URL; stop it by its pid.

    ``config`` adds the image's config file (preloading, warm-up, the database pool and its hooks).
    """
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "pm_assistant.wsgi:application", "--bind", f"127.0.0.1:{port}",
               *(["--config", "python:pm_assistant.gunicorn_conf"] if config else []),
               "--workers", str(workers), "--threads", str(threads), "--timeout", str(timeout),
               "--graceful-timeout", "2",
               # Several servers may run at once (tests, benches): none may take the shared control socket.
               "--no-control-socket"]
    # A file, not a pipe: an unread pipe fills up and blocks the workers' logging.
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        # Four workers importing the app on two busy cores can take a while.
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/login/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"gunicorn did not start: {log.read().decode(errors='replace')}")
            time.sleep(0.2)
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def create_user_with_token(env: dict[str, str], username: str = "alice") -> str:
    """Create a user with a project of their own and return an API token for them."""
    code = (
        "from django.contrib.auth.models import User; from rest_framework.authtoken.models import Token; "
        "from projects.models import Membership, Project; "
        f"u = User.objects.create_user({username!r}, password='demo'); "
        "p = Project.objects.create(owner=u, name='Website', key='WEB'); "
        "Membership.objects.create(user=u, project=p, role='owner'); "
        "print(Token.objects.create(user=u).key)"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def requests_at_once(base: str, headers: dict[str, str],
                     requests: list[tuple[str, str, Any]]) -> list[httpx.Response]:
    """Send (method, path, JSON body) requests at the same moment, each on its own connection; return the
    responses in the same order."""
    ready = threading.Barrier(len(requests))
    responses: list[httpx.Response] = [httpx.Response(0)] * len(requests)

    def send(index: int) -> None:
        method, path, body = requests[index]
        with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
            ready.wait()
            responses[index] = client.request(method, path, json=body)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses
