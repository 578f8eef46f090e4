"""Call a tool and put the call, its arguments, its facts and its result or error on the trace."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

from agent.trace import TraceRecorder
from pm_assistant.errors import ApplicationError

T = TypeVar("T")
FactSource = Literal["database", "server_clock", "model"]


def values_digest(value: Any) -> str:
    """Return a stable sha256 of a JSON value, so a bound argument can be matched to its binding."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def fact(value: Any, source: FactSource) -> dict[str, Any]:
    """A fact a tool relies on, with where it came from."""
    return {"value": value, "source": source}


def tool_call[T](recorder: TraceRecorder, name: str, fn: Callable[..., T], /, *,
              facts: Mapping[str, dict[str, Any]] | None = None,
              bound: Mapping[str, str] | None = None, **arguments: Any) -> T:
    """Run fn(**arguments); application errors are traced and re-raised for the capability to explain.

    ``facts`` are the policy facts the call relies on, each with its source; ``bound`` names the
    arguments the runtime filled from bindings (argument → binding description).
    """
    shown = {k: v for k, v in arguments.items() if k != "ctx"}
    binding_info = {arg: {"binding": desc, "sha256": values_digest(arguments[arg])}
                    for arg, desc in (bound or {}).items()}
    try:
        result = fn(**arguments)
    except ApplicationError as exc:
        recorder.tool_call(name, arguments=shown, error=f"{exc.code}: {exc.message}", facts=dict(facts or {}),
                           bound=binding_info)
        raise
    recorder.tool_call(name, arguments=shown, result=result, facts=dict(facts or {}), bound=binding_info)
    return result
