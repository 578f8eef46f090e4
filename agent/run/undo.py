"""Undo a run's task updates: its owner, once, within UNDO_WINDOW_SECONDS, if nothing changed them since.

The API and the sidebar's Undo button both call run_undo. The restoring itself is the tasks app's
(tasks.revert), from the activity rows the run wrote; deletes and creates are never undone.
"""
from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from agent.models import Run
from pm_assistant.errors import Conflict, Gone
from tasks.revert import task_changes_revert

from .service import run_get
from .trace import TraceRecorder


def run_undo(*, user: User, run_id: UUID | str) -> Run:
    """Restore what the run changed and mark it undone; refused with the reason otherwise.

    Refusals: not the owner's run (404), nothing to undo or already undone (409), a task changed
    since (409, naming the change; nothing is restored), the window closed (410).
    """
    run = run_get(user=user, run_id=run_id)
    if run.undone_at is not None:
        raise Conflict("This run was already undone.", field="run_id", code="already_undone")
    if run.undo_until is None:
        raise Conflict("This run changed nothing that can be undone.", field="run_id", code="not_undoable")
    now = timezone.now()
    if now >= run.undo_until:
        raise Gone(f"Too late to undo: it was possible until {timezone.localtime(run.undo_until):%H:%M}.",
                   field="run_id", code="undo_expired")
    with transaction.atomic():
        # The conditional update is the single-use guard; a refused revert rolls it back with it.
        claimed = Run.objects.filter(pk=run.pk, undone_at__isnull=True, undo_until__gt=now).update(
            undone_at=now, updated_at=now)
        if not claimed:
            raise Conflict("This run was already undone.", field="run_id", code="already_undone")
        restored = task_changes_revert(actor=user, run_id=run.pk)
        TraceRecorder(run).node("undo", restored=len(restored))
        run.undone_at = now
        run.data = {**(run.data if isinstance(run.data, dict) else {}),
                    "undo": {"restored": len(restored), "at": now.isoformat()}}
        run.save(update_fields=["data", "updated_at"])
    return run
