"""The LLM stub speaks enough of the OpenAI API for the real SDK: parsing, retries, timeouts."""
from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import openai  # noqa: TID251
import pytest
from openai.types.chat import ChatCompletionMessageFunctionToolCall  # noqa: TID251
from openai.types.shared_params import ResponseFormatJSONSchema  # noqa: TID251
from pydantic import BaseModel

from tests.llm_stub import Completion, Delay, LLMStub

ROUTE_SCHEMA: ResponseFormatJSONSchema = {
    "type": "json_schema",
    "json_schema": {
        "name": "route",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {"capability": {"type": "string"}, "confidence": {"type": "number"}},
            "required": ["capability", "confidence"],
            "additionalProperties": False,
        },
    },
}
MESSAGES: list[Any] = [
    {"role": "system", "content": "Classify the request."},
    {"role": "user", "content": "what is overdue for me?"},
]


class Route(BaseModel):
    capability: str
    confidence: float


def _client(stub: LLMStub, *, max_retries: int = 2, timeout: float = 1.0) -> openai.OpenAI:
    return openai.OpenAI(base_url=stub.base_url, api_key="x", max_retries=max_retries, timeout=timeout)


def test_structured_json_round_trip_and_request_recorded(llm_stub: LLMStub) -> None:
    llm_stub.push_json({"capability": "query", "confidence": 0.9}, prompt_tokens=42, completion_tokens=7)

    completion = _client(llm_stub).chat.completions.create(
        model="router-model", messages=MESSAGES, response_format=ROUTE_SCHEMA,
    )

    assert json.loads(completion.choices[0].message.content or "") == {"capability": "query", "confidence": 0.9}
    assert completion.choices[0].finish_reason == "stop"
    assert completion.model == "router-model"
    assert completion.usage is not None
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (42, 7)
    assert completion.usage.total_tokens == 49
    [request] = llm_stub.requests
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == "router-model"
    assert request.body["messages"] == MESSAGES
    assert request.body["response_format"] == ROUTE_SCHEMA
    assert request.headers["authorization"] == "Bearer x"


def test_sdk_parse_into_pydantic_model(llm_stub: LLMStub) -> None:
    llm_stub.push_json({"capability": "risk", "confidence": 0.75})

    completion = _client(llm_stub).chat.completions.parse(model="m", messages=MESSAGES, response_format=Route)

    assert completion.choices[0].message.parsed == Route(capability="risk", confidence=0.75)
    assert llm_stub.last_body["response_format"]["type"] == "json_schema"


def test_usage_estimated_from_request_when_not_scripted(llm_stub: LLMStub) -> None:
    llm_stub.push_text("x" * 40)

    completion = _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)

    prompt_chars = sum(len(m["content"]) for m in MESSAGES)
    assert completion.usage is not None
    assert completion.usage.prompt_tokens == prompt_chars // 4
    assert completion.usage.completion_tokens == 10
    assert completion.choices[0].message.content == "x" * 40


def test_tool_call_parsed(llm_stub: LLMStub) -> None:
    llm_stub.push_tool_call("search_tasks", {"status": ["todo"], "assignee": "me"})

    completion = _client(llm_stub).chat.completions.create(
        model="m", messages=MESSAGES,
        tools=[{"type": "function", "function": {"name": "search_tasks", "parameters": {"type": "object"}}}],
    )

    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    assert choice.message.tool_calls is not None
    call = choice.message.tool_calls[0]
    assert isinstance(call, ChatCompletionMessageFunctionToolCall)
    assert call.id.startswith("call_")
    assert call.function.name == "search_tasks"
    assert json.loads(call.function.arguments) == {"status": ["todo"], "assignee": "me"}
    assert llm_stub.last_body["tools"][0]["function"]["name"] == "search_tasks"


def test_tool_call_arguments_given_as_string_are_sent_verbatim(llm_stub: LLMStub) -> None:
    llm_stub.push_tool_call("outline", '{"ref": "art_1"')

    completion = _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)

    [call] = completion.choices[0].message.tool_calls or []
    assert isinstance(call, ChatCompletionMessageFunctionToolCall)
    assert call.function.arguments == '{"ref": "art_1"'  # passed through unparsed, even when invalid


def test_500_then_success_is_retried(llm_stub: LLMStub) -> None:
    llm_stub.push_error(500, "boom").push_text("recovered")
    started = time.monotonic()

    completion = _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)

    assert completion.choices[0].message.content == "recovered"
    assert llm_stub.calls == 2
    assert llm_stub.requests[1].headers["x-stainless-retry-count"] == "1"
    assert time.monotonic() - started < 1.0  # retry-after-ms keeps the backoff short


def test_persistent_500_raises_after_all_retries(llm_stub: LLMStub) -> None:
    for _ in range(3):
        llm_stub.push_error(500, "still down", code="overloaded")

    with pytest.raises(openai.InternalServerError) as excinfo:
        _client(llm_stub, max_retries=2).chat.completions.create(model="m", messages=MESSAGES)

    assert llm_stub.calls == 3
    assert excinfo.value.status_code == 500
    assert excinfo.value.code == "overloaded"
    assert "still down" in excinfo.value.message
    llm_stub.assert_all_consumed()


def test_429_is_retried(llm_stub: LLMStub) -> None:
    llm_stub.push_error(429, "slow down", error_type="rate_limit_error").push_json({"ok": True})

    completion = _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)

    assert json.loads(completion.choices[0].message.content or "") == {"ok": True}
    assert llm_stub.calls == 2


def test_400_is_not_retried(llm_stub: LLMStub) -> None:
    llm_stub.push_error(400, "bad schema").push_text("never sent")

    with pytest.raises(openai.BadRequestError):
        _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)

    assert llm_stub.calls == 1
    assert llm_stub.pending == 1


def test_delay_trips_the_sdk_timeout_quickly(llm_stub: LLMStub) -> None:
    llm_stub.push_delay(30, then=Completion("too late"))
    started = time.monotonic()

    with pytest.raises(openai.APITimeoutError):
        _client(llm_stub, max_retries=0, timeout=0.3).chat.completions.create(model="m", messages=MESSAGES)

    assert time.monotonic() - started < 5
    assert llm_stub.calls == 1


def test_timeout_then_success_on_retry(llm_stub: LLMStub) -> None:
    llm_stub.push_delay(30).push_text("second try")

    completion = _client(llm_stub, max_retries=1, timeout=0.3).chat.completions.create(model="m", messages=MESSAGES)

    assert completion.choices[0].message.content == "second try"
    assert llm_stub.calls == 2


def test_short_delay_within_timeout_answers(llm_stub: LLMStub) -> None:
    llm_stub.push_delay(0.05, then=Completion("on time"))

    completion = _client(llm_stub, max_retries=0).chat.completions.create(model="m", messages=MESSAGES)

    assert completion.choices[0].message.content == "on time"


def test_stop_interrupts_a_pending_delay() -> None:
    stub = LLMStub().start()
    stub.push_delay(60)
    client = _client(stub, max_retries=0, timeout=0.2)
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="m", messages=MESSAGES)
    assert stub.inflight == 1  # the server is still sleeping on the abandoned request
    started = time.monotonic()

    stub.stop()

    assert time.monotonic() - started < 2
    assert stub.inflight == 0


def test_a_held_answer_waits_for_the_test_to_release_it(llm_stub: LLMStub) -> None:
    release = llm_stub.push_held(Completion("now"))
    replies: list[str | None] = []
    caller = threading.Thread(target=lambda: replies.append(
        _client(llm_stub, max_retries=0, timeout=10).chat.completions.create(
            model="m", messages=MESSAGES).choices[0].message.content))
    caller.start()
    caller.join(timeout=0.5)
    assert caller.is_alive() and replies == [] and llm_stub.inflight == 1

    release.set()
    caller.join(timeout=5)

    assert replies == ["now"]


def test_stop_drops_a_held_answer_never_released() -> None:
    stub = LLMStub().start()
    stub.push_held(Completion("never"))
    with pytest.raises(openai.APITimeoutError):
        _client(stub, max_retries=0, timeout=0.2).chat.completions.create(model="m", messages=MESSAGES)
    started = time.monotonic()

    stub.stop()

    assert time.monotonic() - started < 2
    assert stub.inflight == 0


def test_a_paused_stream_sends_its_first_pieces_then_the_rest_when_resumed(llm_stub: LLMStub) -> None:
    resume = llm_stub.push_stream_paused(["a ", "b ", "c ", "d "], after=2)
    stream = _client(llm_stub, timeout=10).chat.completions.create(model="m", messages=MESSAGES, stream=True)
    received: list[str] = []
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            received.append(chunk.choices[0].delta.content)
        if len(received) == 2:
            break
    time.sleep(0.3)  # paused: nothing more arrives until it is resumed
    assert llm_stub.inflight == 1 and received == ["a ", "b "]

    resume.set()
    received += [c.choices[0].delta.content or "" for c in stream if c.choices]

    assert "".join(received) == "a b c d "


def test_malformed_content_fails_structured_parsing(llm_stub: LLMStub) -> None:
    llm_stub.push_malformed()

    with pytest.raises(ValueError):  # pydantic's ValidationError is a ValueError
        _client(llm_stub).chat.completions.parse(model="m", messages=MESSAGES, response_format=Route)

    assert llm_stub.calls == 1


def test_raw_body_is_sent_verbatim(llm_stub: LLMStub) -> None:
    llm_stub.push_raw(502, b"<html>bad gateway</html>", "text/html", headers={"x-should-retry": "false"})

    with pytest.raises(openai.InternalServerError) as excinfo:
        _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)

    assert excinfo.value.status_code == 502
    assert excinfo.value.response.text == "<html>bad gateway</html>"
    assert llm_stub.calls == 1


def test_unscripted_call_gets_the_default_500(llm_stub: LLMStub) -> None:
    with pytest.raises(openai.InternalServerError, match="no scripted response"):
        _client(llm_stub, max_retries=0).chat.completions.create(model="m", messages=MESSAGES)

    assert llm_stub.calls == 1
    with pytest.raises(AssertionError, match="expected no LLM call"):
        llm_stub.assert_no_calls()


def test_default_can_be_replaced(llm_stub: LLMStub) -> None:
    llm_stub.default = Completion("always this")

    client = _client(llm_stub)
    replies = [client.chat.completions.create(model="m", messages=MESSAGES).choices[0].message.content
               for _ in range(2)]

    assert replies == ["always this", "always this"]


def test_a_streamed_request_gets_the_text_as_chunks_with_usage(llm_stub: LLMStub) -> None:
    llm_stub.push_text("three small words", completion_tokens=3)

    stream = _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES, stream=True,
                                                       stream_options={"include_usage": True})
    chunks = list(stream)

    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "three small words"
    assert len([c for c in chunks if c.choices and c.choices[0].delta.content]) == 3
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 3
    assert llm_stub.pending == 0


def test_a_stream_the_client_closes_early_counts_as_cut(llm_stub: LLMStub) -> None:
    llm_stub.push_stream([f"w{i} " for i in range(30)], interval=0.05)

    stream = _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES, stream=True)
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            break
    stream.close()

    deadline = time.monotonic() + 5
    while llm_stub.cut_streams == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert llm_stub.cut_streams == 1


def test_unknown_path_answers_404_json(llm_stub: LLMStub) -> None:
    request = urllib.request.Request(llm_stub.base_url + "/embeddings", data=b'{"input": "x"}', method="POST")

    with pytest.raises(urllib.error.HTTPError) as excinfo:
        urllib.request.urlopen(request, timeout=2)

    assert excinfo.value.code == 404
    assert json.loads(excinfo.value.read())["error"]["code"] == "not_found"
    assert llm_stub.requests[0].path == "/v1/embeddings"


def test_reset_forgets_queue_and_requests(llm_stub: LLMStub) -> None:
    llm_stub.push_text("a")
    _client(llm_stub).chat.completions.create(model="m", messages=MESSAGES)
    llm_stub.push_text("b")

    llm_stub.reset()

    assert (llm_stub.calls, llm_stub.pending) == (0, 0)
    llm_stub.assert_no_calls()


def test_openai_settings_point_at_the_stub(openai_settings: LLMStub, settings: Any) -> None:
    assert settings.LLM_PROVIDER == "openai"
    assert settings.OPENAI_BASE_URL == openai_settings.base_url
    assert settings.OPENAI_BASE_URL.endswith("/v1")
    openai_settings.push_text("hello")

    client = openai.OpenAI(base_url=settings.OPENAI_BASE_URL, api_key=settings.OPENAI_API_KEY,
                           timeout=settings.LLM_TIMEOUT_SECONDS, max_retries=settings.LLM_MAX_RETRIES)

    assert client.chat.completions.create(model="m", messages=MESSAGES).choices[0].message.content == "hello"
    assert openai_settings.requests[0].headers["authorization"] == "Bearer test-key"



def test_trickle_outlasts_a_per_read_timeout(llm_stub: LLMStub) -> None:
    llm_stub.push_trickle(0.004, Completion("slow but whole"))
    started = time.monotonic()

    completion = _client(llm_stub, max_retries=0, timeout=0.3).chat.completions.create(model="m", messages=MESSAGES)

    # Each byte arrives well within the read timeout, so the SDK waits for all of them.
    assert completion.choices[0].message.content == "slow but whole"
    assert time.monotonic() - started > 0.6


def test_trickle_cannot_follow_a_delay(llm_stub: LLMStub) -> None:
    with pytest.raises(TypeError):
        llm_stub.push_trickle(0.1, Delay(1, Completion("x")))  # type: ignore[arg-type]


def test_a_responder_answers_from_the_request_once_the_queue_is_empty(llm_stub: LLMStub) -> None:
    llm_stub.push_text("scripted first")
    llm_stub.responder = lambda body: Completion(f"echo: {body['messages'][-1]['content']}")
    client = _client(llm_stub, max_retries=0)
    answers = [client.chat.completions.create(model="m", messages=[{"role": "user", "content": word}])
               .choices[0].message.content for word in ("one", "two")]
    assert answers == ["scripted first", "echo: two"]
    llm_stub.responder = None
    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="m", messages=MESSAGES)
