"""Background jobs: in-process when eager, and a real round trip through Redis and a worker."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from pm_assistant.celery import app as celery_app
from pm_assistant.errors import NotFound
from projects.models import Project
from tasks.jobs import task_stats_compute
from tasks.models import Task

EXPECTED = {"todo": 2, "in_progress": 1, "blocked": 0, "done": 3}


def _tasks(project: Project) -> None:
    for status, count in EXPECTED.items():
        for n in range(count):
            Task.objects.create(project=project, title=f"{status} {n}", status=status)


@pytest.fixture
def eager() -> Iterator[None]:
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = saved


@pytest.mark.django_db
def test_stats_job_runs_in_process_when_eager(eager: None, website: Project, mobile: Project) -> None:
    _tasks(website)
    Task.objects.create(project=mobile, title="elsewhere", status="blocked")

    result = task_stats_compute.delay(website.pk)

    assert result.get(timeout=5) == {"project_id": website.pk, "total": 6, "by_status": EXPECTED}


@pytest.mark.django_db
def test_stats_job_counts_zero_for_an_empty_project(eager: None, mobile: Project) -> None:
    result = task_stats_compute.delay(mobile.pk).get(timeout=5)

    assert result["total"] == 0
    assert result["by_status"] == {"todo": 0, "in_progress": 0, "blocked": 0, "done": 0}


@pytest.mark.django_db
def test_stats_job_for_a_missing_project_raises_not_found(eager: None) -> None:
    with pytest.raises(NotFound, match="Project 999999 was not found"):
        task_stats_compute.delay(999_999).get(timeout=5)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_stats_job_round_trip_through_redis_and_a_worker(
    worker_on_redis: str, redis_url: str, website: Project
) -> None:
    _tasks(website)

    result = task_stats_compute.apply_async(args=[website.pk], queue=worker_on_redis)
    answer = result.get(timeout=30)

    assert answer == {"project_id": website.pk, "total": 6, "by_status": EXPECTED}
    # The answer came back through Redis: the result backend stored it under the task id.
    assert type(result.backend).__name__ == "RedisBackend"
    stored = redis.Redis.from_url(redis_url).get(f"celery-task-meta-{result.id}")
    assert stored is not None and b'"status": "SUCCESS"' in stored
    redis.Redis.from_url(redis_url).delete(f"celery-task-meta-{result.id}")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_stats_job_error_comes_back_from_the_worker(worker_on_redis: str) -> None:
    result = task_stats_compute.apply_async(args=[999_999], queue=worker_on_redis)

    with pytest.raises(NotFound, match="Project 999999 was not found"):
        result.get(timeout=30)
    assert result.status == "FAILURE"
