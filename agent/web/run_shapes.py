"""A run and its trace as the HTTP API answers them (docs/DESIGN.md#http-api): the one place their shape is written."""
from __future__ import annotations

from typing import Any

from agent.models import Run
from agent.run.audit import run_audit


def run_as_dict(run: Run) -> dict[str, Any]:
    """Return the run as the HTTP contract shapes it (docs/DESIGN.md#http-api)."""
    pending = run.confirmations.filter(decided_at__isnull=True).first() \
        if run.status == Run.Status.NEEDS_CONFIRMATION else None
    return {
        "run_id": str(run.pk),
        "conversation_id": str(run.conversation_id) if run.conversation_id else None,
        "status": run.status,
        "route": {"capability": run.capability, "via": run.via} if run.capability else None,
        "reply": run.reply,
        "error_code": run.error_code,
        "data": run.data,
        "confirmation": {"id": str(pending.pk), "action": pending.action, "facts": pending.facts,
                         **({"steps": pending.facts["steps"]} if "steps" in pending.facts else {})}
        if pending else None,
        "usage": {"llm_calls": run.llm_calls, "prompt_tokens": run.prompt_tokens,
                  "completion_tokens": run.completion_tokens},
        "progress": run.progress or None,
        "undo_until": run.undo_until.isoformat() if run.undo_until else None,
        "undone_at": run.undone_at.isoformat() if run.undone_at else None,
    }


def trace_as_dict(run: Run) -> dict[str, Any]:
    """Return the run's trace: nodes, LLM calls, tool calls, bindings and alerts in order."""
    events = [{"seq": e.seq, "kind": e.kind, "name": e.name, **e.payload} for e in run.events.order_by("seq")]
    return {
        "run_id": str(run.pk),
        "nodes": [e for e in events if e["kind"] == "node"],
        "llm_calls": [e for e in events if e["kind"] == "llm_call"],
        "tool_calls": [e for e in events if e["kind"] == "tool_call"],
        "bindings": [e for e in events if e["kind"] == "binding"],
        "alerts": [{"kind": a.kind, "message": a.message, "details": a.details} for a in run.alerts.all()],
        "events": events,
        "audit": run_audit(run).as_dict(),
    }
