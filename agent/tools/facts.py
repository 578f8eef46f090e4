"""Policy facts with their source, and the digest that ties a bound value to its binding."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Literal

FactSource = Literal["database", "server_clock", "model"]


def values_digest(value: Any) -> str:
    """Return a stable sha256 of a JSON value, so a bound argument can be matched to its binding."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def fact(value: Any, source: FactSource) -> dict[str, Any]:
    """A fact a tool relies on, with where it came from."""
    return {"value": value, "source": source}


def one_record[T: Callable[..., Any]](tool: T) -> T:
    """Mark a reading tool whose result is one record's facts, never rows: stored apart it has no rows to
    index (agent/artifacts/index.py), so its read needs no task-log revision (ToolRunner.read)."""
    tool.one_record = True  # type: ignore[attr-defined]
    return tool


def is_one_record(tool: Callable[..., Any]) -> bool:
    return getattr(tool, "one_record", False) is True
