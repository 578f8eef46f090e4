"""Call a tool and put the call, its arguments and its result or error on the trace."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pm_assistant.errors import ApplicationError

from agent.trace import TraceRecorder

T = TypeVar("T")


def tool_call(recorder: TraceRecorder, name: str, fn: Callable[..., T], /, **arguments: Any) -> T:
    """Run fn(**arguments); application errors are traced and re-raised for the capability to explain."""
    shown = {k: v for k, v in arguments.items() if k != "ctx"}
    try:
        result = fn(**arguments)
    except ApplicationError as exc:
        recorder.tool_call(name, arguments=shown, error=f"{exc.code}: {exc.message}")
        raise
    recorder.tool_call(name, arguments=shown, result=result)
    return result
