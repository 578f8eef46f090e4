"""Any OpenAI-compatible endpoint, through the openai SDK (the only module that imports it).

The SDK's timeout bounds each read, not the call: an endpoint that trickles a byte a second
is never timed out, and its retries multiply a hang. So the SDK makes one attempt at a time
and hands over the raw body as it streams in; this module retries within the call's deadline,
stops reading when the deadline passes or the body outgrows the output limit, and reads the
JSON itself, checking every field it uses: a broken or hostile endpoint yields an LLMError,
never an AttributeError.

Prose for someone watching (a sink) is asked for with ``stream=True``: each text chunk goes to the
sink as it arrives, under the same deadline; a cancelled sink closes the response (LLMStopped). An
attempt is retried only while it has streamed nothing, so no text is ever sent twice.
"""
from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import httpx2
import openai

from pm_assistant.json_input import JSONInputError, json_loads_bounded

from .base import LLMError, LLMReply, LLMStopped, LLMUnavailable, Message, Role, RunListener, ToolRequest
from .deadline import Deadline
from .stream_read import CUT_OFF_REASONS, StreamedReply, token_count

# The SDK's transport is httpx2 (httpx when a client of it is passed in); a streamed body raises its errors.
_READ_TIMEOUTS = (httpx2.TimeoutException, httpx.TimeoutException)
_TRANSPORT_ERRORS = (httpx2.HTTPError, httpx.HTTPError)
# Statuses worth another attempt, as the SDK itself retries them.
_RETRY_STATUSES = {408, 409, 429}
# JSON may spell one character as a 12-byte surrogate-pair escape; the rest is the envelope.
_BYTES_PER_CHAR = 12
_ENVELOPE_BYTES = 64 * 1024
_STREAMED_BYTES_PER_CHAR = 400
_LINE_END = re.compile(rb"\r\n|\r|\n")


class _Retry(Exception):
    """One attempt failed in a way another attempt may not."""

    def __init__(self, error: LLMUnavailable) -> None:
        self.error = error


def _read_within(chunks: Iterator[bytes], deadline: Deadline, max_bytes: int) -> bytes:
    """Collect the body, giving up at the deadline or past `max_bytes`."""
    body = bytearray()
    for chunk in chunks:
        body += chunk
        if len(body) > max_bytes:
            raise LLMError("The model's answer was larger than the output limit.")
        if deadline.remaining() <= 0:
            raise _Retry(LLMUnavailable("The language model did not answer in time."))
    return bytes(body)


def _lines_within(chunks: Iterator[bytes], deadline: Deadline, max_bytes: int) -> Iterator[str]:
    """The event stream's lines as each completes, giving up at the deadline or past `max_bytes` in all.

    Read by chunks, not by line: an endpoint that never ends its line would otherwise hold the read
    (each byte it sends restarts the read timeout) while the unfinished line grows without bound.
    """
    pending, total = bytearray(), 0
    for chunk in chunks:
        total += len(chunk)
        if total > max_bytes:
            raise LLMError("The model's answer was larger than the output limit.")
        if deadline.remaining() <= 0:
            raise _Retry(LLMUnavailable("The language model did not answer in time."))
        pending += chunk
        # A line ends at \r\n, \n or \r (all three are SSE); a \r last in the chunk may be half of \r\n.
        *complete, rest = _LINE_END.split(pending[:-1] if pending.endswith(b"\r") else pending)
        if complete:
            yield from (_text_of(line) for line in complete)
            pending = bytearray(rest + (b"\r" if pending.endswith(b"\r") else b""))
    if pending.strip():
        yield _text_of(bytes(pending).rstrip(b"\r"))


def _text_of(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        raise LLMError("The model's streamed answer was not UTF-8.") from None


def _tool_calls(message: dict[str, Any]) -> tuple[ToolRequest, ...]:
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list):
        raise LLMError("The model's tool calls could not be read.")
    requests = []
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str) \
                or not isinstance(function.get("arguments") or "{}", str):
            raise LLMError("The model asked for a tool call that could not be read.")
        requests.append(ToolRequest(name=function["name"], arguments=function.get("arguments") or "{}"))
    return tuple(requests)


def reply_from_body(body: bytes, *, model: str, max_chars: int) -> LLMReply:
    """Read a chat.completion body, refusing anything that is not one."""
    try:
        payload = json_loads_bounded(body)
    except JSONInputError as exc:
        raise LLMError("The model's answer was not a readable completion.") from exc
    choices = payload.get("choices") if isinstance(payload, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise LLMError("The model's answer had no choices.")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise LLMError("The model's answer had no message.")
    if choices[0].get("finish_reason") in CUT_OFF_REASONS:
        raise LLMError("The model's answer was cut off before its end.")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise LLMError("The model's answer had no text.")
    text = content or ""
    if len(text) > max_chars:
        raise LLMError("The model's answer was larger than the output limit.")
    usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
    named = payload.get("model")
    return LLMReply(text=text, model=named if isinstance(named, str) and named else model,
                    prompt_tokens=token_count(usage.get("prompt_tokens")),
                    completion_tokens=token_count(usage.get("completion_tokens")), tool_calls=_tool_calls(message))


class OpenAIProvider:
    name = "openai"
    offline = False

    def __init__(self, *, api_key: str, base_url: str | None, router_model: str, generation_model: str,
                 timeout: float, max_retries: int, max_output_chars: int) -> None:
        # One attempt per SDK call: the retries below stay within the call's deadline.
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)
        self._timeout = timeout
        self._max_retries = max_retries
        self._max_chars = max_output_chars
        self._models = {"router": router_model, "generation": generation_model}
        self.endpoint = str(self._client.base_url)

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None,
                 budget: float = 30.0, sink: RunListener | None = None) -> LLMReply:
        """Call chat completions within `budget` seconds, with strict JSON-schema output when a schema is given;
        plain text streams to `sink` when one is given."""
        model = self._models[role]
        kwargs: dict[str, Any] = {"model": model, "messages": messages, "temperature": 0}
        if json_schema is not None:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": json_schema, "strict": True},
            }
        if tools:
            kwargs["tools"] = tools
        deadline = Deadline(budget)
        streamed = sink is not None and json_schema is None and not tools
        attempt = 0
        while True:
            try:
                if streamed:
                    assert sink is not None
                    return self._stream_attempt(kwargs, deadline, sink)
                return reply_from_body(self._attempt(kwargs, deadline), model=model, max_chars=self._max_chars)
            except _Retry as retry:
                attempt += 1
                backoff = min(0.25 * attempt, deadline.remaining())
                if attempt > self._max_retries or deadline.remaining() - backoff <= 0:
                    raise retry.error from None
                time.sleep(backoff)

    def _client_within(self, deadline: Deadline) -> openai.OpenAI:
        remaining = deadline.remaining()
        if remaining <= 0:
            raise _Retry(LLMUnavailable("The language model did not answer in time."))
        # The read timeout is per read; the callers check the wall clock between reads.
        return self._client.with_options(timeout=openai.Timeout(min(self._timeout, remaining)))

    def _attempt(self, kwargs: dict[str, Any], deadline: Deadline) -> bytes:
        """Send one request and read its body within the deadline."""
        client = self._client_within(deadline)
        max_bytes = self._max_chars * _BYTES_PER_CHAR + _ENVELOPE_BYTES
        with _provider_errors(), client.chat.completions.with_streaming_response.create(**kwargs) as response:
            return _read_within(response.iter_bytes(), deadline, max_bytes)

    def _stream_attempt(self, kwargs: dict[str, Any], deadline: Deadline, sink: RunListener) -> LLMReply:
        """Send one streamed request, passing each piece of text to the sink as it arrives."""
        client = self._client_within(deadline)
        read = StreamedReply(model=kwargs["model"], max_chars=self._max_chars)
        try:
            with _provider_errors(), client.chat.completions.with_streaming_response.create(
                    **kwargs, stream=True, stream_options={"include_usage": True}) as response:
                # Leaving the block closes the response: a stop or a spent deadline cuts the model off.
                for line in _lines_within(response.iter_bytes(), deadline, self._stream_max_bytes):
                    piece = read.feed(line)
                    if piece:
                        sink.write(piece)
                    if sink.cancelled():
                        raise LLMStopped("Stopped: the model's answer was cut off.")
                    if deadline.remaining() <= 0:
                        raise _Retry(LLMUnavailable("The language model did not answer in time."))
                    if read.done:
                        break
        except _Retry as retry:
            if read.pieces:
                raise retry.error from None  # text was shown already: another attempt would repeat it
            raise
        if not read.done or read.cut_off:
            # Closed before [DONE], or finished at the output limit: what came may end mid-sentence or mid-figure.
            raise LLMError("The model's streamed answer was cut off before its end.")
        return read.reply()

    @property
    def _stream_max_bytes(self) -> int:
        # Each streamed piece comes wrapped in a JSON chunk of a few hundred bytes, a piece may be one character.
        return self._max_chars * _STREAMED_BYTES_PER_CHAR + _ENVELOPE_BYTES


@contextmanager
def _provider_errors() -> Iterator[None]:
    """Turn the SDK's and the transport's errors into LLMUnavailable, marking those worth another attempt."""
    try:
        yield
    except openai.APITimeoutError:
        raise _Retry(LLMUnavailable("The language model did not answer in time.")) from None
    except openai.APIConnectionError:
        raise _Retry(LLMUnavailable("The language model could not be reached.")) from None
    except openai.APIStatusError as exc:
        error = LLMUnavailable(f"The language model answered with HTTP {exc.status_code}.")
        if exc.status_code in _RETRY_STATUSES or exc.status_code >= 500:
            raise _Retry(error) from None
        raise error from None
    except _READ_TIMEOUTS:  # a read of the streamed body
        raise _Retry(LLMUnavailable("The language model did not answer in time.")) from None
    except _TRANSPORT_ERRORS:
        raise _Retry(LLMUnavailable("The language model could not be reached.")) from None
