"""Background jobs of the assistant (run by the Celery worker and beat, or in-process when eager)."""
from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from agent.artifacts.lifecycle import artifacts_archive_due, artifacts_expire_due
from agent.run.service import run_continue as run_continue_now
from agent.run.service import runs_fail_stale

ARCHIVE_BATCH = 500


@shared_task(name="agent.jobs.artifacts_expire", acks_late=True)
def artifacts_expire(limit: int = ARCHIVE_BATCH) -> dict[str, int]:
    """Mark expired artifacts and archive old ones; running it twice changes nothing more."""
    now = timezone.now()
    expired = artifacts_expire_due(now=now)
    outcome = artifacts_archive_due(now=now, limit=limit)
    return {"expired": expired, "archived": outcome.archived, "missing": outcome.missing}


@shared_task(name="agent.jobs.run_continue", acks_late=True)
def run_continue(run_id: str) -> str:
    """Resume a run handed to the background and finish it; a redelivered job finds it done and stops."""
    return str(run_continue_now(run_id=run_id).status)


@shared_task(name="agent.jobs.runs_sweep_stale")
def runs_sweep_stale() -> int:
    """End every background run that has not reported progress within RUN_STALE_AFTER_SECONDS."""
    return runs_fail_stale(older_than=timedelta(seconds=settings.RUN_STALE_AFTER_SECONDS))
