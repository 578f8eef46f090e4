"""What every LLM provider offers, and the errors it may raise."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

Role = Literal["router", "generation"]
Message = dict[str, str]


@dataclass(frozen=True)
class ToolRequest:
    """A function call the model asked for; arguments as the JSON text it wrote."""

    name: str
    arguments: str


@dataclass(frozen=True)
class LLMReply:
    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    tool_calls: tuple[ToolRequest, ...] = ()


class LLMError(Exception):
    """The model could not give a usable answer."""

    code = "llm_error"


class LLMUnavailable(LLMError):
    """The endpoint failed after the SDK's retries, or timed out."""

    code = "llm_unavailable"


class LLMStopped(LLMError):
    """The run was stopped while the model was answering; the call was closed."""

    code = "stopped"


class RunListener(Protocol):
    """Who follows a run as it happens: the stage it is at, the text a model streams, and a stop."""

    def stage(self, label: str) -> None:
        """Say what the run is doing now, in a few words."""
        ...

    def write(self, delta: str) -> None:
        """Pass on the next piece of a streamed answer, as plain text."""
        ...

    def cancelled(self) -> bool:
        """Tell whether the run was asked to stop."""
        ...


class LLMProvider(Protocol):
    name: str
    offline: bool
    # Where the provider's calls go: failures are counted per endpoint (agent/llm/breaker.py).
    endpoint: str

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None,
                 budget: float = 30.0, sink: RunListener | None = None) -> LLMReply:
        """Return the model's answer within `budget` seconds; with json_schema the text is JSON shaped by
        it; with tools it may ask for function calls instead. With a sink, plain text may be streamed
        to it as it arrives (LLMStopped when the sink is cancelled)."""
        ...
