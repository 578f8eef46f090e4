"""A worker process killed in the middle of a report job: the run ends in ``error``, never running forever.

The job runs in a real ``celery worker`` process on the Redis broker and the test database
(PostgreSQL: a second process cannot share SQLite's in-memory test database). The worker's
model hangs in the polish call, so the job is mid-way when the test sends SIGKILL.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import connection

from agent.jobs import runs_sweep_stale
from agent.models import Run
from agent.run.service import run_continue
from tests.celery_config import celery_configured
from tests.clients import api_client
from tests.data_layer.helpers import post_request
from tests.llm_stub import LLMStub

from .fixture import Seeded

PAGE = {"page": "home", "origin": "workbench"}
ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _start_worker(queue: str, redis_url: str, model_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_url,
           "CELERY_BROKER_URL": redis_url, "CELERY_RESULT_BACKEND": redis_url, "CELERY_TASK_ALWAYS_EAGER": "0",
           "LLM_PROVIDER": "openai", "OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": model_url,
           "LLM_TIMEOUT_SECONDS": "120", "LLM_CALL_DEADLINE_SECONDS": "120", "AGENT_RUN_DEADLINE_SECONDS": "120",
           "LLM_MAX_RETRIES": "0", "REPORT_SYNC_MAX_TASKS": str(django_settings.REPORT_SYNC_MAX_TASKS)}
    command = [sys.executable, "-m", "celery", "-A", "pm_assistant", "worker", "--pool", "solo", "-Q", queue,
               "--without-heartbeat", "--without-gossip", "--without-mingle", "--loglevel", "INFO"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"))


def _wait_until_ready(worker: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert worker.poll() is None, log.read_text()
        if " ready." in log.read_text():
            return
        time.sleep(0.2)
    raise AssertionError(f"the worker did not start:\n{log.read_text()}")


def _wait_for_stage(run_id: str, user: User, stage: str, worker: subprocess.Popen[bytes],
                    log: Path) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    body: dict[str, Any] = {}
    while time.monotonic() < deadline:
        assert worker.poll() is None, log.read_text()
        body = api_client(user).get(f"/api/assistant/runs/{run_id}/").json()
        if (body.get("progress") or {}).get("stage") == stage:
            return body
        time.sleep(0.1)
    raise AssertionError(f"the job never reached {stage!r}: {body}")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_job_leaves_the_run_to_the_sweeper_which_ends_it_in_error(
        redis_url: str, seeded: Seeded, alice: User, settings: Any, tmp_path: Path) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("a worker process needs a database it can share: run on PostgreSQL")
    settings.REPORT_SYNC_MAX_TASKS = 3
    queue = f"test-{uuid.uuid4().hex}"
    with LLMStub() as model:
        # Free text, so the worker's run polishes the report with its model, which never answers.
        model.push_delay(300)
        log = tmp_path / "worker.log"
        worker = _start_worker(queue, redis_url, model.base_url, log)
        try:
            _wait_until_ready(worker, log)
            with celery_configured(broker_url=redis_url, result_backend=redis_url, task_always_eager=False,
                                   task_default_queue=queue):
                first = post_request(alice, PAGE, message="weekly report for 2026-W48")
            assert (first["status"], first["progress"]["stage"]) == ("running", "queued")
            mid = _wait_for_stage(first["run_id"], alice, "write", worker, log)
            deadline = time.monotonic() + 30
            while model.inflight == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert model.inflight == 1, "the job should be waiting on the model"
            worker.send_signal(signal.SIGKILL)
            assert worker.wait(timeout=10) == -signal.SIGKILL
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait(timeout=10)

    # Killed mid-job: the run reported up to the polish and is still "running", for now.
    assert mid["status"] == "running" and 0 < mid["progress"]["done"] < mid["progress"]["total"]
    assert Run.objects.get(pk=first["run_id"]).status == Run.Status.RUNNING

    # The periodic sweeper (beat) ends it once it has been silent for RUN_STALE_AFTER_SECONDS.
    settings.RUN_STALE_AFTER_SECONDS = 0
    assert runs_sweep_stale() == 1
    body = api_client(alice).get(f"/api/assistant/runs/{first['run_id']}/").json()
    assert body["status"] == "error"
    assert "background job stopped before it finished" in body["reply"]
    # A redelivered job finds the run ended and leaves it so; nothing runs twice.
    assert run_continue(run_id=first["run_id"]).status == Run.Status.ERROR
    assert django_settings.CELERY_TASK_ACKS_LATE and django_settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert "runs_sweep_stale" in str(django_settings.CELERY_BEAT_SCHEDULE)
