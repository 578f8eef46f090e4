"""Count what each request costs, at the one door every architecture uses to reach a model.

The metered provider wraps the project's provider (agent.llm.providers): calls, prompt and
completion tokens with the project's tokenizer (o200k: every message, tool definition and response
schema sent; the text and tool calls returned), the ids the model typed, and whether an injected
instruction reached a prompt.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agent.context.tokens import token_count
from agent.llm.base import LLMProvider, LLMReply, Message, Role

from .session import CURRENT, INJECTION_MARK


def message_text(message: dict[str, Any]) -> str:
    """The text of one message: its content and any tool calls it carries."""
    content = message.get("content")
    parts = [content] if isinstance(content, str) else []
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        parts.append(f"{function.get('name', '')}{function.get('arguments', '')}")
    return "".join(parts)


def ids_in(value: Any, key: str = "") -> int:
    """How many ids a model output holds: ints under *_id keys, list items under *_ids keys."""
    if isinstance(value, dict):
        return sum(ids_in(v, k) for k, v in value.items())
    if isinstance(value, list):
        if key.endswith("_ids"):
            return sum(1 for v in value if isinstance(v, int) and not isinstance(v, bool))
        return sum(ids_in(v, key) for v in value)
    if isinstance(value, str) and value.startswith("{"):  # arguments a plan step carries as JSON text
        return ids_in(_loads(value))
    return int(key.endswith("_id") and isinstance(value, int) and not isinstance(value, bool))


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


@dataclass
class Meter:
    """What the model was asked and said while serving one request."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    ids_typed: int = 0
    injection_reached: bool = False
    by_purpose: dict[str, int] = field(default_factory=dict)

    def add(self, purpose: str, sent: dict[str, Any], reply: LLMReply) -> None:
        self.calls += 1
        self.by_purpose[purpose] = self.by_purpose.get(purpose, 0) + 1
        prompt = "\n".join(message_text(m) for m in sent["messages"])
        self.prompt_tokens += token_count(prompt)
        for extra in ("tools", "response_format"):
            if sent.get(extra):
                self.prompt_tokens += token_count(json.dumps(sent[extra]))
        said = reply.text + "".join(c.name + c.arguments for c in reply.tool_calls)
        self.completion_tokens += token_count(said)
        self.ids_typed += ids_in(_loads(reply.text)) + sum(ids_in(_loads(c.arguments)) for c in reply.tool_calls)
        self.injection_reached |= INJECTION_MARK in prompt


class MeteredProvider:
    """A provider that counts every call into `meter` and names its purpose for the model driver."""

    def __init__(self, inner: LLMProvider, meter: Meter) -> None:
        self.inner = inner
        self.meter = meter
        self.name, self.offline, self.endpoint = inner.name, inner.offline, inner.endpoint

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None,
                 budget: float = 30.0) -> LLMReply:
        CURRENT.purpose = schema_name
        reply = self.inner.complete(role=role, messages=messages, json_schema=json_schema, schema_name=schema_name,
                                    tools=tools, budget=budget)
        response_format = {"json_schema": json_schema} if json_schema is not None else None
        self.meter.add(schema_name, {"messages": messages, "tools": tools, "response_format": response_format},
                       reply)
        return reply
