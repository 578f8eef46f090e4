"""Background jobs of the assistant (run by the Celery worker and beat, or in-process when eager)."""
from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from agent.artifacts.lifecycle import artifacts_archive_due, artifacts_expire_due

ARCHIVE_BATCH = 500


@shared_task(name="agent.jobs.artifacts_expire", acks_late=True)
def artifacts_expire(limit: int = ARCHIVE_BATCH) -> dict[str, int]:
    """Mark expired artifacts and archive old ones; running it twice changes nothing more."""
    now = timezone.now()
    expired = artifacts_expire_due(now=now)
    outcome = artifacts_archive_due(now=now, limit=limit)
    return {"expired": expired, "archived": outcome.archived, "missing": outcome.missing}
