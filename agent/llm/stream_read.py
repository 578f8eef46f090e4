"""Read a streamed chat completion (server-sent events of chat.completion.chunk) into one reply.

The endpoint is not trusted: every field used is checked, and anything that is not a text chunk,
a usage chunk or the closing ``[DONE]`` ends the call with an LLMError, never an AttributeError.
Only text is streamed: a call with a JSON schema or tools is never made as a stream.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pm_assistant.json_input import JSONInputError, json_loads_bounded

from .base import LLMError, LLMReply

# A finish_reason saying the answer is not whole: cut at the output limit, or filtered.
CUT_OFF_REASONS = frozenset({"length", "content_filter"})
# No real call reports more tokens than this; a bigger figure is not a count (and would overflow the run's
# counters), so it is read as unknown, like a negative one.
TOKENS_REPORTED_MAX = 10_000_000


def token_count(value: Any) -> int:
    """A usage figure as the endpoint reported it, or 0 when it is not a plausible count."""
    plausible = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= TOKENS_REPORTED_MAX
    return value if plausible else 0


@dataclass
class StreamedReply:
    """The answer as its chunks arrive: `feed` each line of the event stream, then take `reply()`."""

    model: str
    max_chars: int
    pieces: list[str] = field(default_factory=list)
    chars: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    done: bool = False
    cut_off: bool = False  # a chunk's finish_reason said the answer is not whole

    def feed(self, line: str) -> str:
        """Read one line of the event stream; return the text it adds ('' when it adds none)."""
        if not line.startswith("data:"):
            return ""  # a blank separator, a comment or an event name
        data = line[len("data:"):].strip()
        if data == "[DONE]":
            self.done = True
            return ""
        try:
            chunk = json_loads_bounded(data)
        except JSONInputError as exc:
            raise LLMError("The model's streamed answer could not be read.") from exc
        if not isinstance(chunk, dict) or "error" in chunk:
            raise LLMError("The model stopped its streamed answer with an error.")
        named, usage = chunk.get("model"), chunk.get("usage")
        if isinstance(named, str) and named:
            self.model = named
        if isinstance(usage, dict):
            self.prompt_tokens = token_count(usage.get("prompt_tokens"))
            self.completion_tokens = token_count(usage.get("completion_tokens"))
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            raise LLMError("The model's streamed answer had no choices.")
        if not choices:
            return ""  # the closing usage chunk
        if isinstance(choices[0], dict) and choices[0].get("finish_reason") in CUT_OFF_REASONS:
            self.cut_off = True
        delta = choices[0].get("delta") if isinstance(choices[0], dict) else None
        if not isinstance(delta, dict) or delta.get("tool_calls"):
            raise LLMError("The model's streamed answer was not text.")
        text = delta.get("content")
        if text is None:
            return ""  # the role announcement, or a chunk carrying only finish_reason
        if not isinstance(text, str):
            raise LLMError("The model's streamed answer was not text.")
        self.chars += len(text)
        if self.chars > self.max_chars:
            raise LLMError("The model's answer was larger than the output limit.")
        self.pieces.append(text)
        return text

    def reply(self) -> LLMReply:
        """The whole answer, with the usage the endpoint reported (zero when it reported none)."""
        return LLMReply(text="".join(self.pieces), model=self.model, prompt_tokens=self.prompt_tokens,
                        completion_tokens=self.completion_tokens)
