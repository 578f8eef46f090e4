"""The one door to the model: assembled prompts in, replies out, every call traced and counted."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F

from agent.models import Run, TraceEvent
from agent.prompting.assembler import AssembledPrompt
from agent.trace import TraceRecorder
from pm_assistant.json_input import JSONInputError, json_loads_bounded

from .base import LLMError, LLMProvider, LLMReply, Role


@dataclass
class LLMClient:
    provider: LLMProvider
    recorder: TraceRecorder

    @property
    def offline(self) -> bool:
        return self.provider.offline

    def complete(self, *, purpose: str, role: Role, prompt: AssembledPrompt,
                 json_schema: dict[str, Any] | None = None, tools: list[dict[str, Any]] | None = None) -> LLMReply:
        """Send the prompt, record messages and usage, and return the reply."""
        try:
            reply = self.provider.complete(role=role, messages=prompt.messages, json_schema=json_schema,
                                           schema_name=purpose, tools=tools)
        except LLMError as exc:
            self._record(purpose, role, prompt, None, error=str(exc))
            raise
        self._record(purpose, role, prompt, reply)
        return reply

    def complete_json(self, *, purpose: str, role: Role, prompt: AssembledPrompt,
                      json_schema: dict[str, Any]) -> Any:
        """Send the prompt with a JSON schema and parse the answer; bad JSON raises LLMError."""
        reply = self.complete(purpose=purpose, role=role, prompt=prompt, json_schema=json_schema)
        try:
            return json_loads_bounded(reply.text)
        except JSONInputError as exc:
            raise LLMError("The model's answer was not valid JSON.") from exc

    def _record(self, purpose: str, role: Role, prompt: AssembledPrompt, reply: LLMReply | None,
                error: str = "") -> None:
        Run.objects.filter(pk=self.recorder.run_id).update(
            llm_calls=F("llm_calls") + 1,
            prompt_tokens=F("prompt_tokens") + (reply.prompt_tokens if reply else 0),
            completion_tokens=F("completion_tokens") + (reply.completion_tokens if reply else 0),
        )
        self.recorder.event(
            TraceEvent.Kind.LLM_CALL, purpose, provider=self.provider.name, role=role,
            model=reply.model if reply else "", messages=prompt.messages, parts=prompt.manifest(),
            reply=reply.text if reply else "", error=error,
            tool_calls=[{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls] if reply else [],
            usage={"prompt_tokens": reply.prompt_tokens if reply else 0,
                   "completion_tokens": reply.completion_tokens if reply else 0},
        )
