"""Shared fixtures: the three demo users, their projects and a real Chromium for Playwright.

At the repository's root so that they serve every test: those under tests/ and those a capability
keeps in its own folder (agent/capabilities/<name>/tests/).
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.contrib.auth.models import User
from django.test.testcases import QuietWSGIRequestHandler

from pm_assistant.celery import app as celery_app
from projects.models import Project
from projects.services import membership_set, project_create
from tests.celery_config import celery_configured
from tests.hypothesis_profiles import PROFILE
from tests.llm_stub import LLMStub
from tests.security import report as security_report
from tests.service_checks import skip_or_fail

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The live server writes a response's headers and its body in two sends. On a kept-alive connection
# (Chromium's, httpx's) Nagle's algorithm then holds the body back until the client acknowledges the
# headers, which it delays by up to 40 ms: every request after a connection's first paid that wait.
# TCP_NODELAY sends the body at once (socketserver's own switch for it).
QuietWSGIRequestHandler.disable_nagle_algorithm = True

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


def pytest_report_header() -> str:
    return f"hypothesis profile: {PROFILE} (HYPOTHESIS_PROFILE=ci runs every example)"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the files marked `long` first (after pytest-django's ordering, keeping it otherwise).

    Workers take a file at a time in this order: a long file started last would keep one worker
    busy after the others had run out of work.
    """
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """On a pytest-xdist worker, send the security corpus's figures to the process that reports."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["security_corpus"] = security_report.worker_figures()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    security_report.merge(getattr(node, "workeroutput", {}).get("security_corpus", {}))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = security_report.summary_lines()
    if lines:
        terminalreporter.section("security corpus")
        for line in lines:
            terminalreporter.write_line(line)
        security_report.write()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
        django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory) -> None:
    """On SQLite the test database is a file, not Django's shared in-memory one.

    An in-memory database is one connection that the live server's request threads share with
    the test; two requests at once (a page reload fetching its fragments) then use one sqlite3
    connection from two threads and fail with "bad parameter or other API misuse". With a file
    each thread opens its own connection, as in production.
    """
    from django.conf import settings
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")
        # Durability is not a test concern: no fsync per commit keeps the suite as fast as in memory.
        options = database.setdefault("OPTIONS", {})
        options["init_command"] = options.get("init_command", "") + "PRAGMA synchronous=OFF;"


@pytest.fixture(scope="session", autouse=True)
def _cache_keys_of_this_worker() -> Iterator[None]:
    """Prefix this worker's cache keys with its id: on Redis, parallel workers share one database.

    Their users have the same ids (each worker has its own test database), so a key such as a
    user's count of open streams would otherwise be counted by two workers at once.
    """
    from django.conf import settings
    from django.test import override_settings

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:  # one process: nothing to share
        yield
        return
    caches = {name: {**cache, "KEY_PREFIX": f"{worker}:{cache.get('KEY_PREFIX', '')}"}
              for name, cache in settings.CACHES.items()}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(scope="session", autouse=True)
def _checkpointer_pools_closed(django_db_setup: Any) -> Iterator[None]:
    """The saver's pooled connections are closed before the test database is dropped (set up after it,
    so torn down before it)."""
    from agent.graph.checkpointer import checkpointer_pools_close

    yield
    checkpointer_pools_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.path.exists(CHROMIUM):
        skip_or_fail(f"Chromium not found at {CHROMIUM}")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


def _user(username: str) -> User:
    return User.objects.create_user(username=username, password="demo", email=f"{username}@example.com")


@pytest.fixture
def alice(db: Any) -> User:
    return _user("alice")


@pytest.fixture
def bob(db: Any) -> User:
    return _user("bob")


@pytest.fixture
def carol(db: Any) -> User:
    return _user("carol")


@pytest.fixture
def dave(db: Any) -> User:
    """A viewer of the website project."""
    return _user("dave")


def _project(owner: User, name: str, key: str, members: dict[User, str]) -> Project:
    project = project_create(owner=owner, name=name, key=key)
    for user, role in members.items():
        membership_set(actor=owner, project=project, user=user, role=role)
    return project


@pytest.fixture
def website(alice: User, carol: User, dave: User) -> Project:
    """Website Redesign: alice owns, carol is a member, dave a viewer."""
    return _project(alice, "Website Redesign", "WEB", {carol: "member", dave: "viewer"})


@pytest.fixture
def mobile(alice: User) -> Project:
    return _project(alice, "Mobile App", "MOB", {})


@pytest.fixture
def platform(bob: User, carol: User) -> Project:
    """Data Platform: bob owns, carol is a member; alice cannot see it."""
    return _project(bob, "Data Platform", "DATA", {carol: "member"})


@pytest.fixture
def llm_stub() -> Iterator[LLMStub]:
    """A scripted OpenAI-compatible server on a free local port."""
    with LLMStub() as stub:
        yield stub


@pytest.fixture
def openai_settings(settings: Any, llm_stub: LLMStub) -> Iterator[LLMStub]:
    """Point the openai provider at the stub, with short timeouts and two retries."""
    settings.LLM_PROVIDER = "openai"
    settings.OPENAI_API_KEY = "test-key"
    settings.OPENAI_BASE_URL = llm_stub.base_url
    settings.LLM_TIMEOUT_SECONDS = 2.0
    settings.LLM_MAX_RETRIES = 2
    yield llm_stub


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Hash the fixture users' passwords cheaply: the production hasher costs about a second per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def artifact_root(settings: Any, tmp_path: Path) -> Path:
    """Store each test's artifacts in a directory of its own (the settings fixture resets the cache)."""
    root = tmp_path / "artifacts"
    settings.STORAGES = {**settings.STORAGES, "artifacts": {
        "BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"location": str(root)}}}
    return root


@pytest.fixture(autouse=True)
def _agent_isolation(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Give every test its own checkpoint file and the offline LLM unless it asks for another."""
    settings.AGENT_CHECKPOINT_SQLITE_PATH = tmp_path_factory.mktemp("checkpoints") / "checkpoints.sqlite"
    settings.LLM_PROVIDER = "offline"
    # A node that writes a frozen view fails the test instead of being dropped quietly.
    settings.AGENT_FROZEN_VIEWS_RAISE = True


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        skip_or_fail("REDIS_URL is not set: the Celery round trip needs a Redis broker")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"Redis at {url} does not answer: {exc}")
    return url


@pytest.fixture
def worker_on_redis(redis_url: str) -> Iterator[str]:
    """Point the app at Redis, not eager, and run a real worker thread on a queue of its own."""
    # A queue of its own, so no other worker on the same Redis can take the job.
    queue = f"test-{uuid.uuid4().hex}"
    with celery_configured(broker_url=redis_url, result_backend=redis_url, task_always_eager=False), \
            start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30, queues=[queue]):
        yield queue
