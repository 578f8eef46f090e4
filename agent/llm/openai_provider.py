"""Any OpenAI-compatible endpoint, through the openai SDK (the only module that imports it)."""
from __future__ import annotations

from typing import Any

import openai

from .base import LLMReply, LLMUnavailable, Message, Role, ToolRequest


class OpenAIProvider:
    name = "openai"
    offline = False

    def __init__(self, *, api_key: str, base_url: str | None, router_model: str, generation_model: str,
                 timeout: float, max_retries: int) -> None:
        # The SDK retries connection errors, 408/409/429 and 5xx with backoff; we only set the budget.
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._models = {"router": router_model, "generation": generation_model}

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None) -> LLMReply:
        """Call chat completions, with strict JSON-schema output when a schema is given."""
        model = self._models[role]
        kwargs: dict[str, Any] = {}
        if json_schema is not None:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": json_schema, "strict": True},
            }
        if tools:
            kwargs["tools"] = tools
        try:
            response = self._client.chat.completions.create(
                model=model, messages=messages, temperature=0, **kwargs  # type: ignore[arg-type]
            )
        except openai.APITimeoutError as exc:
            raise LLMUnavailable("The language model did not answer in time.") from exc
        except openai.APIConnectionError as exc:
            raise LLMUnavailable("The language model could not be reached.") from exc
        except openai.APIStatusError as exc:
            raise LLMUnavailable(f"The language model answered with HTTP {exc.status_code}.") from exc
        choice = response.choices[0] if response.choices else None
        usage = response.usage
        calls = tuple(
            ToolRequest(name=call.function.name, arguments=call.function.arguments or "{}")
            for call in ((choice.message.tool_calls or []) if choice else [])
            if call.type == "function"
        )
        return LLMReply(
            text=(choice.message.content or "") if choice else "",
            model=response.model or model,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            tool_calls=calls,
        )
