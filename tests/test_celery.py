"""Background jobs: a real round trip through Redis and a worker (the Celery settings are the deployed ones)."""
from __future__ import annotations

import pytest
import redis

from agent.jobs import artifacts_expire


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_job_round_trips_through_redis_and_a_worker(worker_on_redis: str, redis_url: str) -> None:
    result = artifacts_expire.apply_async(kwargs={"limit": 10}, queue=worker_on_redis)
    answer = result.get(timeout=30)

    assert answer == {"expired": 0, "archived": 0, "missing": 0}
    # The answer came back through Redis: the result backend stored it under the job's id.
    assert type(result.backend).__name__ == "RedisBackend"
    stored = redis.Redis.from_url(redis_url).get(f"celery-task-meta-{result.id}")
    assert stored is not None and b'"status": "SUCCESS"' in stored
    redis.Redis.from_url(redis_url).delete(f"celery-task-meta-{result.id}")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_job_error_comes_back_from_the_worker(worker_on_redis: str) -> None:
    result = artifacts_expire.apply_async(kwargs={"limit": "many"}, queue=worker_on_redis)

    with pytest.raises(Exception):  # noqa: B017 - whichever error the job raised, it crossed the broker
        result.get(timeout=30)
    assert result.status == "FAILURE"
