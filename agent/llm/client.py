"""The one door to the model: assembled prompts in, replies out, every call traced, counted and timed."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
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


def _run_deadline() -> Deadline:
    return Deadline(settings.AGENT_RUN_DEADLINE_SECONDS)


@dataclass
class LLMClient:
    provider: LLMProvider
    recorder: TraceRecorder
    # The run's whole budget: every call gets what is left of it, at most LLM_CALL_DEADLINE_SECONDS.
    deadline: Deadline = field(default_factory=_run_deadline)
    # Calls recorded on the run so far: none means the run's usage counters are still zero.
    calls: int = 0
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
        reply = self.complete(purpose=purpose, role=role, prompt=prompt, json_schema=json_schema)
        try:
            value = json_loads_bounded(reply.text)
        except JSONInputError as exc:
            raise LLMError("The model's answer was not valid JSON.") from exc
        # An escaped "\u0000" is clean text until decoded; a slot holding it would break every write of it.
        if has_unstorable(value):
            raise LLMError("The model's answer held characters that cannot be stored (NUL or a lone surrogate).")
        return value

    def _record(self, purpose: str, role: Role, prompt: AssembledPrompt, reply: LLMReply | None,
                error: str = "", seconds: float = 0.0, streamed: bool = False) -> None:
        self.calls += 1
        Run.objects.filter(pk=self.recorder.run_id).update(
            llm_calls=F("llm_calls") + 1,
            prompt_tokens=F("prompt_tokens") + (reply.prompt_tokens if reply else 0),
            completion_tokens=F("completion_tokens") + (reply.completion_tokens if reply else 0),
        )
        self.recorder.event(
            TraceEvent.Kind.LLM_CALL, purpose, provider=self.provider.name, role=role,
            model=reply.model if reply else "", messages=prompt.messages, parts=prompt.manifest(),
            reply=reply.text if reply else "", error=error, seconds=round(seconds, 3),
            **({"streamed": True} if streamed else {}),
            tool_calls=[{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls] if reply else [],
            usage={"prompt_tokens": reply.prompt_tokens if reply else 0,
                   "completion_tokens": reply.completion_tokens if reply else 0},
        )
