"""Feedback on answers: the run's owner rates an answer up or down, with an optional reason; staff read
it in the admin (agent.admin.RunFeedbackAdmin). One rating per run and user: rating again replaces it."""
from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import User

from agent.models import Run, RunFeedback
from pm_assistant.errors import Conflict, InvalidInput

from .service import run_get

REASON_MAX_CHARS = RunFeedback._meta.get_field("reason").max_length or 500


def run_feedback_give(*, user: User, run_id: UUID | str, rating: str, reason: str = "") -> RunFeedback:
    """Store the owner's rating of a finished run's answer (anyone else's run is not found)."""
    if rating not in RunFeedback.Rating.values:
        raise InvalidInput('rating: must be "up" or "down".', field="rating")
    reason = " ".join(reason.split())
    if len(reason) > REASON_MAX_CHARS:
        raise InvalidInput(f"reason: at most {REASON_MAX_CHARS} characters.", field="reason")
    run = run_get(user=user, run_id=run_id)
    if run.status == Run.Status.RUNNING:
        raise Conflict("This answer is not finished yet: rate it once it has landed.", field="run_id")
    feedback, _ = RunFeedback.objects.update_or_create(run=run, user=user,
                                                       defaults={"rating": rating, "reason": reason})
    return feedback


def with_feedback(runs: list[Run]) -> list[Run]:
    """Read each run's owner's rating in one query, for the footer (``run.user_feedback``; None: not rated)."""
    rated = {f.run_id: f for f in RunFeedback.objects.filter(run__in=[r.pk for r in runs])
             if any(r.pk == f.run_id and r.user_id == f.user_id for r in runs)} if runs else {}
    for run in runs:
        run.user_feedback = rated.get(run.pk)  # type: ignore[attr-defined]
    return runs


def feedback_of(run: Run) -> RunFeedback | None:
    """The owner's rating of the run, read with_feedback beforehand or now."""
    if hasattr(run, "user_feedback"):
        return run.user_feedback
    return RunFeedback.objects.filter(run=run, user_id=run.user_id).first()
