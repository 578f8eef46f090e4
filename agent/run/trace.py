"""The run's trace: nodes, LLM calls, tool calls, bindings and alerts, in order.

A run's recorder buffers its events and writes them in one bulk INSERT when the graph stops (at
the end or at an interrupt; the service flushes in ``finally``, so a run that crashes still
records what it had). Events that guard an effect against re-running are written at once.
"""
from __future__ import annotations

import dataclasses
import hashlib
import re
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.encoding import force_str

from agent.models import Alert, Run, TraceEvent

# NUL cannot be stored in PostgreSQL text or jsonb, and a lone surrogate cannot be encoded as UTF-8.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> str:
    """Replace the characters no database column can hold (NUL, lone surrogates) with U+FFFD."""
    return _UNSTORABLE.sub("\ufffd", text)


def has_unstorable(value: Any) -> bool:
    """Tell whether a string, or any key or string inside a JSON value, holds such a character."""
    if isinstance(value, str):
        return _UNSTORABLE.search(value) is not None
    if isinstance(value, dict):
        return any(has_unstorable(k) or has_unstorable(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_unstorable(v) for v in value)
    return False


def _jsonable(value: Any) -> Any:
    # Model text reaches the trace as it came (the trace records what happened), made storable here.
    if isinstance(value, str):
        return storable(value)
    if isinstance(value, dict):
        return {storable(str(k)): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if hasattr(value, "model_dump"):
        return _jsonable(value.model_dump(mode="json"))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _jsonable(dataclasses.asdict(value))
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return storable(force_str(value))


def _alert_key(key: str) -> str:
    """The key as stored: one longer than the column (a model can make it so) becomes its prefix and digest."""
    limit = Alert._meta.get_field("key").max_length or 200
    if len(key) <= limit:
        return key
    return f"{key[:limit - 65]}#{hashlib.sha256(key.encode()).hexdigest()}"


class TraceRecorder:
    """Append events to one run's trace; alerts are also stored as Alert rows for admin.

    Built directly it writes each event as it comes; ``for_run`` builds the buffered one a run uses.
    """

    def __init__(self, run: Run, *, buffered: bool = False, last_seq: int | None = None) -> None:
        # Only the id: nodes reach the recorder, and the Run row holds the whole page context.
        self.run_id = run.pk
        self._buffered = buffered
        self._pending: list[TraceEvent] = []
        self.progressed = False  # whether progress() wrote the run's progress
        if last_seq is None:
            last_seq = TraceEvent.objects.filter(run_id=run.pk).aggregate(m=Max("seq"))["m"] or 0
        self._seq = last_seq
        # Every event this recorder wrote; the whole trace when it started on an empty one (a new run),
        # so the run's audit needs no read of what was just written.
        self._written: list[TraceEvent] = []
        self._whole = last_seq == 0

    @classmethod
    def for_run(cls, run: Run, *, resuming: bool, last_seq: int | None = None) -> TraceRecorder:
        """A buffered recorder; a new run's trace is empty, so only a resumed run reads where it stopped
        (unless its caller read that already: ``last_seq``)."""
        return cls(run, buffered=True, last_seq=last_seq if resuming else 0)

    def event(self, kind: str, name: str, *, durable: bool = False, **payload: Any) -> None:
        """Add an event; durable=True writes it (and all before it) now, as an effect's idempotency record."""
        self._seq += 1
        self._pending.append(TraceEvent(run_id=self.run_id, seq=self._seq, kind=kind, name=storable(name),
                                        payload=_jsonable(payload)))
        if durable or not self._buffered:
            self.flush()

    def flush(self) -> None:
        """Write the buffered events in one INSERT; nothing when none are pending."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        TraceEvent.objects.bulk_create(pending)
        self._written += pending

    def events(self) -> list[TraceEvent] | None:
        """The run's whole trace as written, when this recorder wrote all of it (else None: read it)."""
        return list(self._written) if self._whole and not self._pending else None

    def node(self, name: str, *, durable: bool = False, **payload: Any) -> None:
        self.event(TraceEvent.Kind.NODE, name, durable=durable, **payload)

    def tool_call(self, name: str, *, arguments: dict[str, Any], result: Any = None, error: str = "",
                  facts: dict[str, Any] | None = None, bound: dict[str, Any] | None = None) -> None:
        self.event(TraceEvent.Kind.TOOL_CALL, name, arguments=arguments, result=result, error=error,
                   facts=facts or {}, bound=bound or {})

    def progress(self, stage: str, done: int, total: int) -> None:
        """Store how far a background run has got (its ``progress``) and put the step on the trace."""
        value: dict[str, Any] = {"stage": stage, "done": done, "total": total}
        # updated_at moves too: it is the heartbeat the stale-run sweeper reads.
        Run.objects.filter(pk=self.run_id).update(progress=value, updated_at=timezone.now())
        self.progressed = True
        self.event(TraceEvent.Kind.NODE, "progress", **value)

    def alert(self, kind: str, message: str, *, key: str = "", **details: Any) -> None:
        """Record an alert once per (kind, key) even when a node re-runs after a resume."""
        try:
            with transaction.atomic():
                message = storable(message)
                Alert.objects.create(run_id=self.run_id, kind=kind, key=_alert_key(storable(key) or message),
                                     message=message, details=_jsonable(details))
        except IntegrityError:
            return
        self.event(TraceEvent.Kind.ALERT, kind, message=message, **details)
