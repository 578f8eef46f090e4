"""The expiry job: marks expired artifacts, archives old ones, and can be run again at any point."""
from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from django.contrib.auth.models import User
from django.utils import timezone

from agent.artifacts.inspect import artifact_head
from agent.jobs import artifacts_expire
from agent.models import Artifact
from tests.agent.artifacts.conftest import classify_rows, task_rows

NOTHING = {"expired": 0, "archived": 0, "missing": 0}


def _artifact(owner: User, *, age: timedelta = timedelta(0), expired: bool = False) -> Artifact:
    ref = classify_rows(owner, task_rows(20), []).ref
    now = timezone.now()
    Artifact.objects.filter(ref=ref).update(
        created_at=now - age, expires_at=now - timedelta(minutes=1) if expired else now + timedelta(hours=1))
    return Artifact.objects.get(ref=ref)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.django_db
def test_marks_expired_artifacts_once(alice: User) -> None:
    fresh = _artifact(alice)
    stale = _artifact(alice, expired=True)

    assert artifacts_expire() == {**NOTHING, "expired": 1}
    assert artifacts_expire() == NOTHING

    stale.refresh_from_db()
    fresh.refresh_from_db()
    assert stale.expired_at is not None and fresh.expired_at is None
    assert artifact_head(user=alice, ref=stale.ref)["expired"] is True
    assert artifact_head(user=alice, ref=fresh.ref)["expired"] is False


@pytest.mark.django_db
def test_archives_old_artifacts_under_the_archive_prefix(settings: Any, artifact_root: Path, alice: User) -> None:
    old = _artifact(alice, age=settings.ARTIFACT_ARCHIVE_AFTER + timedelta(minutes=1), expired=True)
    young = _artifact(alice, age=settings.ARTIFACT_ARCHIVE_AFTER - timedelta(minutes=1), expired=True)
    live = artifact_root / old.content_path

    assert artifacts_expire() == {"expired": 2, "archived": 1, "missing": 0}
    assert artifacts_expire() == NOTHING

    old.refresh_from_db()
    assert old.archived_at is not None and old.content_path == f"archive/{old.ref}.ndjson"
    assert not live.exists()
    assert _sha(artifact_root / old.content_path) == old.sha256
    young.refresh_from_db()
    assert young.archived_at is None and (artifact_root / young.content_path).exists()
    answer = artifact_head(user=alice, ref=old.ref)
    assert answer["expired"] is True and "Run query_tasks again" in answer["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("interrupted", ["copied", "copy_cut_short", "live_removed"])
def test_a_run_killed_mid_archive_is_finished_by_the_next(
        interrupted: str, settings: Any, artifact_root: Path, alice: User) -> None:
    old = _artifact(alice, age=settings.ARTIFACT_ARCHIVE_AFTER + timedelta(days=1))
    live, archived = artifact_root / old.content_path, artifact_root / f"archive/{old.ref}.ndjson"
    archived.parent.mkdir(parents=True, exist_ok=True)
    if interrupted == "copied":
        archived.write_bytes(live.read_bytes())
    elif interrupted == "copy_cut_short":
        archived.write_bytes(live.read_bytes()[:100])
    else:
        archived.write_bytes(live.read_bytes())
        live.unlink()

    assert artifacts_expire()["archived"] == 1

    old.refresh_from_db()
    assert old.content_path == f"archive/{old.ref}.ndjson" and not live.exists()
    assert _sha(archived) == old.sha256
    assert sorted(p.name for p in (artifact_root / "archive").iterdir()) == [archived.name]


@pytest.mark.django_db
def test_content_lost_before_archiving_is_counted_and_not_retried(settings: Any, artifact_root: Path,
                                                                 alice: User) -> None:
    old = _artifact(alice, age=settings.ARTIFACT_ARCHIVE_AFTER + timedelta(days=1), expired=True)
    (artifact_root / old.content_path).unlink()

    assert artifacts_expire() == {"expired": 1, "archived": 0, "missing": 1}
    assert artifacts_expire() == NOTHING
    old.refresh_from_db()
    assert old.archived_at is not None and old.content_path == ""


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_job_runs_on_a_worker_through_redis(worker_on_redis: str, redis_url: str, settings: Any,
                                                artifact_root: Path, alice: User) -> None:
    old = _artifact(alice, age=settings.ARTIFACT_ARCHIVE_AFTER + timedelta(days=1), expired=True)

    result = artifacts_expire.apply_async(queue=worker_on_redis)

    assert result.get(timeout=30) == {"expired": 1, "archived": 1, "missing": 0}
    assert type(result.backend).__name__ == "RedisBackend"
    old.refresh_from_db()
    assert old.archived_at is not None and (artifact_root / old.content_path).exists()
    # The beat schedule names this very task.
    assert settings.CELERY_BEAT_SCHEDULE["artifacts-expire-and-archive"]["task"] == artifacts_expire.name
    assert artifacts_expire.acks_late is True
    redis.Redis.from_url(redis_url).delete(f"celery-task-meta-{result.id}")
