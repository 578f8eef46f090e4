"""The one door to the model: assembled prompts in, replies out, every call traced, counted and timed."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import F

from agent.models import Run, TraceEvent
from agent.prompting.messages import AssembledPrompt
from agent.run.trace import TraceRecorder, has_unstorable
from pm_assistant.json_input import JSONInputError, json_loads_bounded

from .base import LLMError, LLMProvider, LLMReply, LLMStopped, LLMUnavailable, Role, RunListener
from .breaker import CircuitBreaker
from .deadline import Deadline

UNAVAILABLE = "The model is unavailable right now."
# What the working bubble says while a model writes the answer's prose.
WRITING = "Writing the answer"


def reply_json(text: str) -> Any:
    """A reply's text read as the JSON its schema asked for; bad or unstorable JSON raises LLMError."""
    try:
        value = json_loads_bounded(text)
    except JSONInputError as exc:
        raise LLMError("The model's answer was not valid JSON.") from exc
    # An escaped "\u0000" is clean text until decoded; a slot holding it would break every write of it.
    if has_unstorable(value):
        raise LLMError("The model's answer held characters that cannot be stored (NUL or a lone surrogate).")
    return value


@dataclass
class Usage:
    """Model calls and tokens, as the run's counters (Run.llm_calls, prompt_tokens, completion_tokens) hold them."""

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, reply: LLMReply | None) -> None:
        """Count one call; a failed call (no reply) used no tokens that were reported."""
        self.llm_calls += 1
        self.prompt_tokens += reply.prompt_tokens if reply else 0
        self.completion_tokens += reply.completion_tokens if reply else 0


def _run_deadline() -> Deadline:
    return Deadline(settings.AGENT_RUN_DEADLINE_SECONDS)


@dataclass
class LLMClient:
    provider: LLMProvider
    recorder: TraceRecorder
    # The run's whole budget: every call gets what is left of it, at most LLM_CALL_DEADLINE_SECONDS.
    deadline: Deadline = field(default_factory=_run_deadline)
    # Calls made through this client, and the usage not yet added to the run's counters: the service
    # writes it with the run's outcome (or its failure or stop), in the statement that ends the run.
    calls: int = 0
    unwritten: Usage = field(default_factory=Usage)
    # Who follows the run as it happens (the sidebar's live channel); prose streams to it. None: nobody.
    listener: RunListener | None = None

    @property
    def offline(self) -> bool:
        return self.provider.offline

    def complete(self, *, purpose: str, role: Role, prompt: AssembledPrompt,
                 json_schema: dict[str, Any] | None = None, tools: list[dict[str, Any]] | None = None,
                 prose: bool = False) -> LLMReply:
        """Send the prompt within the budget, record messages and usage, and return a storable reply.

        `prose` marks the answer's text for the user: it streams to the run's listener, if any.
        """
        if self.listener is not None and self.listener.cancelled():
            raise LLMStopped("The run was stopped before the model was asked.")
        breaker = CircuitBreaker(f"{self.provider.name}:{self.provider.endpoint}")
        if not self.provider.offline and breaker.is_open():
            # Refused before any network: the model failed repeatedly and is left alone for its cool-down.
            raise LLMUnavailable(f"{UNAVAILABLE} It failed repeatedly; it will be tried again in a minute.")
        budget = self.deadline.within(settings.LLM_CALL_DEADLINE_SECONDS).remaining()
        if budget <= 0:
            raise LLMUnavailable("The request's time for the model is spent.")
        sink = self.listener if prose and not self.provider.offline and json_schema is None and not tools else None
        if sink is not None:
            sink.stage(WRITING)
        # Only a streamed call names a sink, so a provider (or a wrapper of one) that never streams needs none.
        streaming: dict[str, Any] = {"sink": sink} if sink is not None else {}
        started = time.monotonic()
        try:
            reply = self.provider.complete(role=role, messages=prompt.messages, json_schema=json_schema,
                                           schema_name=purpose, tools=tools, budget=budget, **streaming)
        except LLMError as exc:
            if isinstance(exc, LLMUnavailable) and not self.provider.offline:
                breaker.record_failure()
            self._record(purpose, role, prompt, None, error=str(exc), seconds=time.monotonic() - started,
                         streamed=sink is not None)
            raise
        if not self.provider.offline:
            breaker.record_success()
        self._record(purpose, role, prompt, reply, seconds=time.monotonic() - started, streamed=sink is not None)
        if has_unstorable(reply.text) or any(has_unstorable(c.arguments) for c in reply.tool_calls):
            raise LLMError("The model's answer held characters that cannot be stored (NUL or a lone surrogate).")
        return reply

    def complete_json(self, *, purpose: str, role: Role, prompt: AssembledPrompt,
                      json_schema: dict[str, Any]) -> Any:
        """Send the prompt with a JSON schema and parse the answer; bad or unstorable JSON raises LLMError."""
        return reply_json(self.complete(purpose=purpose, role=role, prompt=prompt, json_schema=json_schema).text)

    def usage_write(self, run: Run) -> dict[str, Any]:
        """The run's counters plus the unwritten usage, as fields for the UPDATE that stores the run's end;
        `run` is brought up to date and the usage counts as written."""
        pending, self.unwritten = self.unwritten, Usage()
        added = asdict(pending)
        for name, count in added.items():
            setattr(run, name, getattr(run, name) + count)
        return {name: F(name) + count for name, count in added.items() if count}

    def _record(self, purpose: str, role: Role, prompt: AssembledPrompt, reply: LLMReply | None,
                error: str = "", seconds: float = 0.0, streamed: bool = False) -> None:
        self.calls += 1
        self.unwritten.add(reply)
        self.recorder.event(
            TraceEvent.Kind.LLM_CALL, purpose, provider=self.provider.name, role=role,
            model=reply.model if reply else "", messages=prompt.messages, parts=prompt.manifest(),
            reply=reply.text if reply else "", error=error, seconds=round(seconds, 3),
            **({"streamed": True} if streamed else {}),
            tool_calls=[{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls] if reply else [],
            usage={"prompt_tokens": reply.prompt_tokens if reply else 0,
                   "completion_tokens": reply.completion_tokens if reply else 0},
        )
