"""A scripted OpenAI-compatible chat completions server for tests, over real HTTP.

Tests push responses into a FIFO queue; each `POST /v1/chat/completions` pops the next
one. With the queue empty the server asks `responder` (a function of the request body, for a
model that answers what it reads) when one is set, else answers `default` (HTTP 500 unless
changed), so an unexpected LLM call fails loudly instead of passing silently.

A request with `"stream": true` gets its text answer as server-sent `chat.completion.chunk`
events (a Completion word by word at once, a Streamed piece by piece at its own pace), then a
usage chunk when `stream_options.include_usage` asks for one, then `data: [DONE]`.
"""
from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

CHAT_PATH = "/v1/chat/completions"
# The SDK honours this header; a short delay keeps retry tests fast.
FAST_RETRY_HEADERS = {"retry-after-ms": "10"}

_ids = itertools.count(1)


def _estimate_tokens(text: str) -> int:
    """Estimate tokens as one per four characters, never below one."""
    return max(1, len(text) // 4)


def _prompt_text(body: dict[str, Any]) -> str:
    """Join the text of every request message, for a prompt-token estimate."""
    parts: list[str] = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(p.get("text", "") for p in content if isinstance(p, dict))
    return "".join(parts)


def error_body(status: int, message: str, *, error_type: str | None = None, code: str | None = None) -> bytes:
    """Build an OpenAI-style error body."""
    default_type = "invalid_request_error" if status < 500 else "server_error"
    payload = {"error": {"message": message, "type": error_type or default_type, "param": None, "code": code}}
    return json.dumps(payload).encode()


@dataclass(frozen=True)
class Raw:
    """Exact bytes with a status and content type; every other kind renders to one."""

    status: int
    body: bytes
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    def render(self, body: dict[str, Any]) -> Raw:
        return self


@dataclass(frozen=True)
class Completion:
    """A chat.completion with text content or one tool call."""

    content: str | None
    tool_call: tuple[str, str] | None = None
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def render(self, body: dict[str, Any]) -> Raw:
        message: dict[str, Any] = {"role": "assistant", "content": self.content, "refusal": None}
        produced = self.content or ""
        if self.tool_call is not None:
            name, arguments = self.tool_call
            message["tool_calls"] = [{
                "id": f"call_stub{next(_ids)}", "type": "function",
                "function": {"name": name, "arguments": arguments},
            }]
            produced = name + arguments
        prompt = _estimate_tokens(_prompt_text(body)) if self.prompt_tokens is None else self.prompt_tokens
        completion = _estimate_tokens(produced) if self.completion_tokens is None else self.completion_tokens
        payload = {
            "id": f"chatcmpl-stub{next(_ids)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or "stub-model",
            "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason, "logprobs": None}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
            "system_fingerprint": None,
        }
        return Raw(200, json.dumps(payload).encode())


@dataclass(frozen=True)
class Streamed:
    """Text for a streamed request, sent as one chunk event per piece, `interval` seconds apart.

    With `pause` set, the stream stops after its first `pause_after` pieces until the test sets the
    event: the partial answer can be looked at for as long as the test needs.
    """

    pieces: tuple[str, ...]
    interval: float = 0.0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    pause: threading.Event | None = None
    pause_after: int = 0

    @classmethod
    def of(cls, completion: Completion) -> Streamed:
        """A completion's text as a stream, a word (with its following space) per chunk."""
        words = tuple(re.findall(r"\s*\S+\s*", completion.content or ""))
        return cls(words, 0.0, completion.prompt_tokens, completion.completion_tokens)

    def render(self, body: dict[str, Any]) -> Raw:
        """Answer a request that did not ask for a stream with the whole text at once."""
        return Completion("".join(self.pieces), prompt_tokens=self.prompt_tokens,
                          completion_tokens=self.completion_tokens).render(body)

    def events(self, body: dict[str, Any]) -> list[bytes]:
        """The SSE events of the stream: a role chunk, one chunk per piece, finish, usage, [DONE]."""
        ident, model, created = f"chatcmpl-stub{next(_ids)}", body.get("model") or "stub-model", int(time.time())

        def chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None, choices: bool = True) -> bytes:
            payload = {"id": ident, "object": "chat.completion.chunk", "created": created, "model": model,
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}]
                       if choices else [], "usage": usage}
            return f"data: {json.dumps(payload)}\n\n".encode()

        text = "".join(self.pieces)
        prompt = _estimate_tokens(_prompt_text(body)) if self.prompt_tokens is None else self.prompt_tokens
        completion = _estimate_tokens(text) if self.completion_tokens is None else self.completion_tokens
        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": piece}) for piece in self.pieces]
        events.append(chunk({}, finish="stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
            events.append(chunk({}, usage=usage, choices=False))
        events.append(b"data: [DONE]\n\n")
        return events


@dataclass(frozen=True)
class Error:
    """An OpenAI-style error answer with the given status."""

    status: int
    message: str
    error_type: str | None = None
    code: str | None = None
    headers: dict[str, str] = field(default_factory=lambda: dict(FAST_RETRY_HEADERS))

    def render(self, body: dict[str, Any]) -> Raw:
        payload = error_body(self.status, self.message, error_type=self.error_type, code=self.code)
        return Raw(self.status, payload, headers=self.headers)


@dataclass(frozen=True)
class Delay:
    """Wait `seconds` (cut short when the server stops), then answer `then`."""

    seconds: float
    then: Completion | Error | Raw | Streamed

    def render(self, body: dict[str, Any]) -> Raw:
        return self.then.render(body)


@dataclass(frozen=True)
class Held:
    """Wait until the test sets `release` (cut short when the server stops), then answer `then`.

    A test that must act while the model is still thinking (press Stop, check the working bubble)
    releases the answer when it is done instead of guessing a delay long enough for a busy machine.
    """

    release: threading.Event
    then: Completion | Error | Raw | Streamed
    # A test that never releases does not pin a handler thread past this.
    limit: float = 60.0

    def render(self, body: dict[str, Any]) -> Raw:
        return self.then.render(body)


@dataclass(frozen=True)
class Trickle:
    """Send the status and headers at once, then the body one byte every `interval` seconds.

    A client whose timeout bounds each read, not the whole answer, waits for all of it.
    """

    interval: float
    then: Completion | Error | Raw

    def render(self, body: dict[str, Any]) -> Raw:
        return self.then.render(body)


Scripted = Completion | Error | Raw | Delay | Held | Trickle | Streamed


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it; `body` is the parsed JSON or None."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes


class _Handler(BaseHTTPRequestHandler):
    server: _StubHTTPServer
    # A stalled client must not pin a handler thread forever.
    timeout = 30

    def do_POST(self) -> None:
        self._handle()

    def do_GET(self) -> None:
        self._handle()

    def _handle(self) -> None:
        stub = self.server.stub
        with stub._track():
            self._answer(stub)

    def _answer(self, stub: LLMStub) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        path = self.path.split("?", 1)[0]
        stub._record(RecordedRequest(self.command, path, headers, body, raw))
        if self.command != "POST" or path != CHAT_PATH:
            return self._send(Raw(404, error_body(404, f"no route for {self.command} {path}", code="not_found")))
        if not isinstance(body, dict):
            return self._send(Raw(400, error_body(400, "request body must be a JSON object")))
        scripted = stub._next(body)
        if isinstance(scripted, Delay):
            if stub._stopping.wait(scripted.seconds):
                return  # the server is stopping: drop the request
            scripted = scripted.then
        elif isinstance(scripted, Held):
            deadline = time.monotonic() + scripted.limit
            while not scripted.release.wait(0.02):
                if stub._stopping.is_set() or time.monotonic() > deadline:
                    return  # the server is stopping (or the test never released it): drop the request
            scripted = scripted.then
        if body.get("stream") and isinstance(scripted, (Completion, Streamed)):
            return self._send_stream(scripted if isinstance(scripted, Streamed) else Streamed.of(scripted), body)
        interval = scripted.interval if isinstance(scripted, Trickle) else None
        self._send(scripted.render(body), interval=interval)

    def _send_stream(self, stream: Streamed, body: dict[str, Any]) -> None:
        """Send the events one by one; a client that hangs up before the end counts as a cut stream."""
        stub = self.server.stub
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for index, event in enumerate(stream.events(body)):
                if index > 1 and stream.interval and stub._stopping.wait(stream.interval):
                    return  # the server is stopping
                if stream.pause is not None and index == stream.pause_after + 1:
                    while not stream.pause.wait(0.02):  # index 0 is the role chunk, the pieces follow
                        if stub._stopping.is_set():
                            return
                self.wfile.write(event)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            with stub._lock:
                stub.cut_streams += 1

    def _send(self, reply: Raw, *, interval: float | None = None) -> None:
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            if interval is None:
                self.wfile.write(reply.body)
                return
            self.wfile.flush()
            for index in range(len(reply.body)):
                if self.server.stub._stopping.wait(interval):
                    return  # the server is stopping: leave the answer unfinished
                self.wfile.write(reply.body[index:index + 1])
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout fired) before the answer

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output clean."""


class _StubHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, stub: LLMStub, address: tuple[str, int]) -> None:
        self.stub = stub
        super().__init__(address, _Handler)


class LLMStub:
    """A scripted OpenAI-compatible server on 127.0.0.1; use `start()`/`stop()` or `with`."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._address = (host, port)
        self._lock = threading.Lock()
        self._queue: deque[Scripted] = deque()
        self._requests: list[RecordedRequest] = []
        self._stopping = threading.Event()
        self._idle = threading.Condition(self._lock)
        self._inflight = 0
        self._server: _StubHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.default: Scripted = Error(500, "unexpected LLM call: no scripted response left", code="stub_empty")
        # Streamed answers the client closed before their end (a stop, a deadline).
        self.cut_streams = 0
        # With the queue empty: the answer computed from the request body, when set.
        self.responder: Callable[[dict[str, Any]], Scripted] | None = None

    # lifecycle

    def start(self) -> Self:
        """Bind a free port and serve in a background thread."""
        self._stopping.clear()
        self._server = _StubHTTPServer(self, self._address)
        # A short poll interval keeps stop() (and so each test teardown) fast.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="llm-stub", daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; delayed answers still waiting are dropped."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._idle:
            self._idle.wait_for(lambda: self._inflight == 0, timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """The OpenAI base URL, ending with /v1."""
        if self._server is None:
            raise RuntimeError("the stub is not running")
        return f"http://{self._address[0]}:{self._server.server_port}/v1"

    # scripting

    def push(self, response: Scripted) -> LLMStub:
        """Queue one scripted response."""
        with self._lock:
            self._queue.append(response)
        return self

    def push_json(self, obj: Any, *, prompt_tokens: int | None = None, completion_tokens: int | None = None) -> LLMStub:
        """Queue a completion whose content is `obj` as JSON (structured output)."""
        return self.push(Completion(json.dumps(obj), prompt_tokens=prompt_tokens, completion_tokens=completion_tokens))

    def push_text(self, text: str, *, prompt_tokens: int | None = None, completion_tokens: int | None = None,
                  finish_reason: str = "stop") -> LLMStub:
        """Queue a completion with plain text content."""
        return self.push(Completion(text, finish_reason=finish_reason, prompt_tokens=prompt_tokens,
                                    completion_tokens=completion_tokens))

    def push_tool_call(self, name: str, arguments: dict[str, Any] | str, *, prompt_tokens: int | None = None,
                       completion_tokens: int | None = None) -> LLMStub:
        """Queue a completion that calls the function `name` with `arguments`."""
        args = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return self.push(Completion(None, tool_call=(name, args), finish_reason="tool_calls",
                                    prompt_tokens=prompt_tokens, completion_tokens=completion_tokens))

    def push_error(self, status: int = 500, message: str = "stub server error", *, error_type: str | None = None,
                   code: str | None = None, headers: dict[str, str] | None = None) -> LLMStub:
        """Queue an OpenAI-style error; by default it tells the SDK to retry after 10 ms."""
        extra = dict(FAST_RETRY_HEADERS if headers is None else headers)
        return self.push(Error(status, message, error_type, code, extra))

    def push_delay(self, seconds: float, then: Scripted | None = None) -> LLMStub:
        """Queue an answer that waits `seconds` first (to trip the client timeout)."""
        follow = then or Completion("late answer")
        if isinstance(follow, (Delay, Held, Trickle)):
            raise TypeError("a delay is followed by a plain answer")
        return self.push(Delay(seconds, follow))

    def push_held(self, then: Scripted) -> threading.Event:
        """Queue an answer held until the test sets the returned event."""
        if isinstance(then, (Delay, Held, Trickle)):
            raise TypeError("a held answer is a plain answer")
        release = threading.Event()
        self.push(Held(release, then))
        return release

    def push_trickle(self, interval: float, then: Scripted | None = None) -> LLMStub:
        """Queue an answer whose body arrives one byte every `interval` seconds."""
        follow = then or Completion("slow answer")
        if isinstance(follow, (Delay, Held, Trickle)):
            raise TypeError("a trickle sends a plain answer slowly")
        return self.push(Trickle(interval, follow))

    def push_stream(self, pieces: list[str], *, interval: float = 0.0, prompt_tokens: int | None = None,
                    completion_tokens: int | None = None) -> LLMStub:
        """Queue text that a streamed request receives piece by piece, `interval` seconds apart."""
        return self.push(Streamed(tuple(pieces), interval, prompt_tokens, completion_tokens))

    def push_stream_paused(self, pieces: list[str], *, after: int, interval: float = 0.0) -> threading.Event:
        """Queue a stream that stops after its first `after` pieces until the test sets the returned event."""
        resume = threading.Event()
        self.push(Streamed(tuple(pieces), interval, pause=resume, pause_after=after))
        return resume

    def push_malformed(self, content: str = "not json {") -> LLMStub:
        """Queue a valid completion whose content is not valid JSON."""
        return self.push(Completion(content))

    def push_raw(self, status: int, body: bytes, content_type: str = "application/json",
                 headers: dict[str, str] | None = None) -> LLMStub:
        """Queue exact bytes with a status and content type."""
        return self.push(Raw(status, body, content_type, dict(headers or {})))

    def reset(self) -> None:
        """Forget queued responses and recorded requests."""
        with self._lock:
            self._queue.clear()
            self._requests.clear()

    # inspection

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of every request received, oldest first."""
        with self._lock:
            return list(self._requests)

    @property
    def calls(self) -> int:
        """How many requests arrived (any path)."""
        with self._lock:
            return len(self._requests)

    @property
    def last_body(self) -> Any:
        """The parsed JSON body of the latest request."""
        requests = self.requests
        if not requests:
            raise AssertionError("the LLM stub received no request")
        return requests[-1].body

    @property
    def inflight(self) -> int:
        """How many requests are being answered right now."""
        with self._lock:
            return self._inflight

    @property
    def pending(self) -> int:
        """How many scripted responses are still queued."""
        with self._lock:
            return len(self._queue)

    def assert_no_calls(self) -> None:
        """Fail if any request reached the server."""
        requests = self.requests
        assert not requests, f"expected no LLM call, got {len(requests)}: {[r.body for r in requests]}"

    def assert_all_consumed(self) -> None:
        """Fail if scripted responses were left unused."""
        assert self.pending == 0, f"{self.pending} scripted LLM response(s) were never requested"

    @contextmanager
    def _track(self) -> Iterator[None]:
        with self._lock:
            self._inflight += 1
        try:
            yield
        finally:
            with self._idle:
                self._inflight -= 1
                self._idle.notify_all()

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next(self, body: dict[str, Any]) -> Scripted:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            responder = self.responder
        return responder(body) if responder is not None else self.default
