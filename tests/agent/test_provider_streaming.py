"""The provider's streamed call through the real SDK and the stub's SSE: pieces reach the sink in order,
a failure before the first piece is retried, a failure after it is not (no text twice), a broken stream
is an LLMError, the deadline holds, and a cancelled sink closes the call."""
from __future__ import annotations

import json
import time
from typing import Any

import pytest

from agent.llm.base import LLMError, LLMStopped, LLMUnavailable
from agent.llm.providers import llm_provider_from_settings
from tests.llm_stub import LLMStub, Raw, Streamed

MESSAGES = [{"role": "user", "content": "say something"}]


class Sink:
    """Collects what a streamed call passes on; cancels after `cancel_after` pieces."""

    def __init__(self, cancel_after: int | None = None) -> None:
        self.pieces: list[str] = []
        self.stages: list[str] = []
        self.cancel_after = cancel_after

    def stage(self, label: str) -> None:
        self.stages.append(label)

    def write(self, delta: str) -> None:
        self.pieces.append(delta)

    def cancelled(self) -> bool:
        return self.cancel_after is not None and len(self.pieces) >= self.cancel_after


def stream(sink: Sink, budget: float = 5.0) -> Any:
    return llm_provider_from_settings().complete(role="generation", messages=MESSAGES, budget=budget, sink=sink)


def test_pieces_reach_the_sink_in_order_and_the_usage_is_counted(openai_settings: LLMStub) -> None:
    openai_settings.push_stream(["One ", "two ", "three."], prompt_tokens=11, completion_tokens=3)
    sink = Sink()

    reply = stream(sink)

    assert sink.pieces == ["One ", "two ", "three."]
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens) == ("One two three.", 11, 3)
    assert openai_settings.last_body["stream"] is True


def test_json_and_tool_calls_are_never_streamed(openai_settings: LLMStub) -> None:
    openai_settings.push_json({"ok": True})
    llm_provider_from_settings().complete(role="router", messages=MESSAGES, sink=Sink(),
                                          json_schema={"type": "object", "properties": {"ok": {"type": "boolean"}},
                                                       "required": ["ok"], "additionalProperties": False})
    assert "stream" not in openai_settings.last_body


def test_a_failure_before_the_first_piece_is_retried(openai_settings: LLMStub) -> None:
    openai_settings.push_error(503).push_stream(["Fine ", "now."])
    sink = Sink()

    assert stream(sink).text == "Fine now."
    assert sink.pieces == ["Fine ", "now."] and openai_settings.calls == 2


def test_a_broken_chunk_after_text_ends_the_call_without_another_attempt(openai_settings: LLMStub) -> None:
    events = Streamed(("Half ",)).events({"model": "m"})
    openai_settings.push_raw(200, events[0] + events[1] + b"data: {not json\n\n", "text/event-stream")
    openai_settings.push_stream(["never ", "asked"])
    sink = Sink()

    with pytest.raises(LLMError, match="could not be read"):
        stream(sink)
    assert sink.pieces == ["Half "] and openai_settings.calls == 1


@pytest.mark.parametrize("chunk", [
    {"choices": "nope"},
    {"choices": [{"delta": {"content": 42}}]},
    {"choices": [{"delta": {"tool_calls": [{"index": 0}]}}]},
    {"error": {"message": "overloaded"}},
])
def test_chunks_that_are_not_text_end_the_call_with_an_llm_error(openai_settings: LLMStub,
                                                                 chunk: dict[str, Any]) -> None:
    openai_settings.push_raw(200, f"data: {json.dumps(chunk)}\n\n".encode(), "text/event-stream")

    with pytest.raises(LLMError):
        stream(Sink())


def test_the_output_limit_holds_while_streaming(openai_settings: LLMStub, settings: Any) -> None:
    settings.LLM_OUTPUT_MAX_CHARS = 10
    openai_settings.push_stream(["0123456789", "more"])

    with pytest.raises(LLMError, match="output limit"):
        stream(Sink())


def test_the_deadline_holds_for_a_slow_stream(openai_settings: LLMStub) -> None:
    openai_settings.push_stream([f"w{i} " for i in range(50)], interval=0.1)
    sink = Sink()
    started = time.monotonic()

    with pytest.raises(LLMUnavailable, match="in time"):
        stream(sink, budget=1.0)
    assert time.monotonic() - started < 2.5
    assert 0 < len(sink.pieces) < 50


def test_a_cancelled_sink_closes_the_streamed_call(openai_settings: LLMStub) -> None:
    openai_settings.push_stream([f"w{i} " for i in range(40)], interval=0.05)
    sink = Sink(cancel_after=2)

    with pytest.raises(LLMStopped):
        stream(sink)
    assert sink.pieces == ["w0 ", "w1 "]
    deadline = time.monotonic() + 5
    while openai_settings.cut_streams == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert openai_settings.cut_streams == 1


def test_a_stream_that_closes_before_its_end_is_not_taken_as_whole(openai_settings: LLMStub) -> None:
    events = Streamed(("Completed 12",)).events({"model": "m"})
    openai_settings.push_raw(200, events[0] + events[1], "text/event-stream")  # no finish, no [DONE]

    with pytest.raises(LLMError, match="cut off"):
        stream(Sink())


def test_a_stream_finished_at_the_output_limit_is_not_taken_as_whole(openai_settings: LLMStub) -> None:
    events = Streamed(("Completed 12",)).events({"model": "m"})
    cut = b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}\n\n'
    openai_settings.push_raw(200, events[0] + events[1] + cut + b"data: [DONE]\n\n", "text/event-stream")

    with pytest.raises(LLMError, match="cut off"):
        stream(Sink())


def test_an_answer_cut_at_the_output_limit_is_refused_unstreamed_too(openai_settings: LLMStub) -> None:
    openai_settings.push_text("Completed 12", finish_reason="length")

    with pytest.raises(LLMError, match="cut off"):
        llm_provider_from_settings().complete(role="generation", messages=MESSAGES, budget=5.0)


def test_a_line_that_never_ends_is_cut_by_the_deadline(openai_settings: LLMStub) -> None:
    # One byte every 50 ms of a line with no end: each byte restarts the read timeout.
    never_ends = Raw(200, b'data: {"choices": [{"delta": {"content": "' + b"a" * 400, "text/event-stream", {})
    openai_settings.push_trickle(0.05, never_ends)
    started = time.monotonic()

    with pytest.raises(LLMUnavailable, match="in time"):
        stream(Sink(), budget=1.0)
    assert time.monotonic() - started < 3


def test_a_line_that_never_ends_is_cut_by_the_size_limit(openai_settings: LLMStub, settings: Any) -> None:
    settings.LLM_OUTPUT_MAX_CHARS = 10
    openai_settings.push_raw(200, b'data: {"choices": [{"delta": {"content": "' + b"a" * 200_000, "text/event-stream")

    with pytest.raises(LLMError, match="output limit"):
        stream(Sink())


@pytest.mark.parametrize("end", [b"\r", b"\r\n", b"\n"])
def test_every_sse_line_ending_is_read(openai_settings: LLMStub, end: bytes) -> None:
    events = Streamed(("Fine ", "now.")).events({"model": "m"})
    body = b"".join(event.replace(b"\n", end) for event in events)
    openai_settings.push_raw(200, body, "text/event-stream")
    sink = Sink()

    assert stream(sink).text == "Fine now."
    assert sink.pieces == ["Fine ", "now."]
