"""docker-compose.yml, read as compose would (no engine here): health checks, start order, the demo profile and
the proxy; then each service's health command run against the real services it stands for."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import yaml

from tests.gunicorn_server import free_port, fresh_postgres_database, manage, postgres_server_url, server_env
from tests.service_checks import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
BIN = Path(sys.executable).parent


def _health_argv(service: str) -> list[str]:
    """The service's health command as argv, the way the engine runs it ($$ is compose's escaped $)."""
    test = SERVICES[service]["healthcheck"]["test"]
    if test[0] == "CMD-SHELL":
        return ["sh", "-c", test[1].replace("$$", "$")]
    assert test[0] == "CMD", test
    return [sys.executable if word == "python" else word for word in test[1:]]


def _run(argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", **env})


# --- the file ------------------------------------------------------------------------------------------

def test_every_long_running_service_has_a_health_check() -> None:
    for name, service in SERVICES.items():
        if service.get("restart") != "no":
            check = service.get("healthcheck")
            assert check and check["test"][0] in ("CMD", "CMD-SHELL"), name
            assert check.get("interval") and check.get("retries"), name
    assert "inspect ping" in SERVICES["worker"]["healthcheck"]["test"][1]
    assert "/healthz" in " ".join(SERVICES["web"]["healthcheck"]["test"])


def test_services_start_when_what_they_need_is_healthy() -> None:
    def needs(name: str) -> dict[str, str]:
        return {dep: spec["condition"] for dep, spec in SERVICES[name]["depends_on"].items()}

    ready = {"postgres": "service_healthy", "redis": "service_healthy", "migrate": "service_completed_successfully"}
    assert needs("web") == ready and needs("worker") == ready
    assert needs("beat") == {"redis": "service_healthy", "migrate": "service_completed_successfully"}
    assert needs("migrate") == {"postgres": "service_healthy"}
    assert needs("proxy") == {"web": "service_healthy"}


def test_the_demo_profile_loads_the_demo_data_once_after_the_migrations() -> None:
    demo = SERVICES["demo"]
    assert demo["profiles"] == ["demo"] and demo["restart"] == "no"
    assert demo["command"] == ["python", "manage.py", "seed_demo"]
    assert demo["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
    assert all("profiles" not in service for name, service in SERVICES.items() if name != "demo")


def test_one_address_in_front_of_any_number_of_web_containers() -> None:
    # Only the proxy publishes a port: `--scale web=2` starts two web containers without a clash.
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy"} and SERVICES["proxy"]["ports"] == ["8000:8000"]
    mount = SERVICES["proxy"]["volumes"][0].split(":")[0]
    conf = (ROOT / mount).read_text()
    assert "server web:8000" in conf and "proxy_pass http://web;" in conf and "proxy_buffering off;" in conf


# --- the commands, against the real services ------------------------------------------------------------

@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        skip_or_fail("the health commands need Redis: REDIS_URL is not set")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        skip_or_fail(f"the health commands need Redis: {exc}")
    return url


@pytest.fixture
def database_url() -> Iterator[str]:
    server = postgres_server_url()
    if server is None:
        skip_or_fail("the health commands need PostgreSQL (DATABASE_URL)")
    assert server is not None
    with fresh_postgres_database(server, prefix="pm_compose") as url:
        yield url


def test_the_postgres_and_redis_checks_answer_from_the_running_servers(redis_url: str, database_url: str) -> None:
    server = database_url.rsplit("/", 1)[0].split("@")[-1]
    host, port = server.rsplit(":", 1)
    assert _run(_health_argv("postgres"), PGHOST=host, PGPORT=port).returncode == 0
    assert _run(_health_argv("postgres"), PGHOST=host, PGPORT=str(free_port())).returncode != 0
    answer = _run(_health_argv("redis"))
    assert (answer.returncode, answer.stdout.strip()) == (0, "PONG")


@contextmanager
def _process(argv: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _until(check: Any, seconds: float, process: subprocess.Popen[bytes]) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        outcome = check()
        if outcome or time.monotonic() > deadline:
            return outcome
        assert process.poll() is None, "the process ended"
        time.sleep(0.5)


def _production(database_url: str, redis_url: str, **more: str) -> dict[str, str]:
    return server_env(DATABASE_URL=database_url, REDIS_URL=redis_url, DJANGO_PRODUCTION="1",
                      DJANGO_SECRET_KEY=uuid.uuid4().hex * 2, DJANGO_ALLOWED_HOSTS="pm.example.com",
                      LLM_PROVIDER="offline", CELERY_TASK_ALWAYS_EAGER="0", **more)


def test_the_web_check_passes_on_the_image_server_and_fails_naming_a_missing_database(
        redis_url: str, database_url: str) -> None:
    env = _production(database_url, redis_url)
    manage(env, "migrate", "--noinput")
    port = free_port()
    argv = _health_argv("web")
    assert sum("127.0.0.1:8000" in word for word in argv) == 1
    argv = [word.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for word in argv]
    # The Dockerfile's command: the image's config, production settings, plain HTTP from inside.
    serve = [sys.executable, "-m", "gunicorn", "pm_assistant.wsgi:application", "--config",
             "python:pm_assistant.gunicorn_conf", "--no-control-socket"]
    with _process(serve, {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "1",
                          "GUNICORN_ACCESS_LOG": "/dev/null"}) as web:
        check = _until(lambda: _run(argv, DJANGO_ALLOWED_HOSTS="pm.example.com").returncode == 0, 120, web)
        assert check, "the web health check never passed"
        # Asked as the engine asks: no TLS, the configured host; the answer names the parts, nothing else.
        body = httpx.get(f"http://127.0.0.1:{port}/healthz", headers={"Host": "pm.example.com"}).json()
        assert body == {"status": "ok", "failed": [],
                        "checks": {"database": "ok", "cache": "ok", "checkpointer": "ok", "broker": "ok"}}
    missing = database_url + "_missing"
    port = free_port()
    plain = [sys.executable, "-m", "gunicorn", "pm_assistant.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--no-control-socket"]
    with _process(plain, _production(missing, redis_url)) as web:
        answer = _until(lambda: _get(f"http://127.0.0.1:{port}/healthz"), 60, web)
        assert answer is not None and answer.status_code == 503
        assert answer.json()["failed"] == ["database", "checkpointer"]
        assert "_missing" not in answer.text and "127.0.0.1" not in answer.text
        failed = _run([word.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for word in _health_argv("web")],
                      DJANGO_ALLOWED_HOSTS="pm.example.com")
        assert failed.returncode != 0 and "503" in failed.stderr


def _get(url: str) -> httpx.Response | None:
    try:
        return httpx.get(url, headers={"Host": "pm.example.com"}, timeout=10)
    except httpx.HTTPError:
        return None


def test_the_worker_check_pings_this_worker_through_the_broker(redis_url: str, database_url: str) -> None:
    env = _production(database_url, redis_url)
    host = f"compose-test-{uuid.uuid4().hex[:8]}"
    serve = [str(BIN / "celery"), "-A", "pm_assistant", "worker", "--pool", "solo", "--loglevel", "WARNING",
             "--hostname", f"celery@{host}", "--queues", f"compose-{host}"]
    with _process(serve, env) as worker:
        assert _until(lambda: _run(_health_argv("worker"), HOSTNAME=host).returncode == 0, 90, worker)
        assert _run(_health_argv("worker"), HOSTNAME=f"{host}-gone").returncode != 0


def test_the_beat_check_follows_the_schedule_file(redis_url: str, database_url: str, tmp_path: Path) -> None:
    env = _production(database_url, redis_url)
    test = SERVICES["beat"]["healthcheck"]["test"]
    argv = [word.replace("/app/var/", f"{tmp_path}/") for word in _health_argv("beat")]
    assert "/app/var/celerybeat-schedule" in shlex.join(test) and argv != _health_argv("beat")
    assert _run(argv).returncode != 0  # no schedule file yet
    serve = [str(BIN / "celery"), "-A", "pm_assistant", "beat", "--loglevel", "WARNING",
             "--schedule", str(tmp_path / "celerybeat-schedule")]
    with _process(serve, env) as beat:
        assert _until(lambda: _run(argv).returncode == 0, 60, beat)
    stale = time.time() - 200
    for file in tmp_path.glob("celerybeat-schedule*"):
        os.utime(file, (stale, stale))
    assert _run(argv).returncode != 0
