"""The run's trace: nodes, LLM calls, tool calls, bindings and alerts, stored as they happen."""
from __future__ import annotations

import dataclasses
import re
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.encoding import force_str

from .models import Alert, Run, TraceEvent

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


class TraceRecorder:
    """Append events to one run's trace; alerts are also stored as Alert rows for admin."""

    def __init__(self, run: Run) -> None:
        # Only the id: nodes reach the recorder, and the Run row holds the whole page context.
        self.run_id = run.pk
        self._seq = TraceEvent.objects.filter(run_id=run.pk).aggregate(m=Max("seq"))["m"] or 0

    def event(self, kind: str, name: str, **payload: Any) -> None:
        self._seq += 1
        TraceEvent.objects.create(run_id=self.run_id, seq=self._seq, kind=kind, name=storable(name),
                                  payload=_jsonable(payload))

    def node(self, name: str, **payload: Any) -> None:
        self.event(TraceEvent.Kind.NODE, name, **payload)

    def tool_call(self, name: str, *, arguments: dict[str, Any], result: Any = None, error: str = "",
                  facts: dict[str, Any] | None = None, bound: dict[str, Any] | None = None) -> None:
        self.event(TraceEvent.Kind.TOOL_CALL, name, arguments=arguments, result=result, error=error,
                   facts=facts or {}, bound=bound or {})

    def progress(self, stage: str, done: int, total: int) -> None:
        """Store how far a background run has got (its ``progress``) and put the step on the trace."""
        value = {"stage": stage, "done": done, "total": total}
        # updated_at moves too: it is the heartbeat the stale-run sweeper reads.
        Run.objects.filter(pk=self.run_id).update(progress=value, updated_at=timezone.now())
        self.event(TraceEvent.Kind.NODE, "progress", **value)

    def alert(self, kind: str, message: str, *, key: str = "", **details: Any) -> None:
        """Record an alert once per (kind, key) even when a node re-runs after a resume."""
        try:
            with transaction.atomic():
                message = storable(message)
                Alert.objects.create(run_id=self.run_id, kind=kind, key=storable(key) or message[:200],
                                     message=message, details=_jsonable(details))
        except IntegrityError:
            return
        self.event(TraceEvent.Kind.ALERT, kind, message=message, **details)
