"""An OpenAI-compatible chat-completions server for the bench: a model driver answers each request.

Every architecture reaches it through the project's own client (agent.llm's OpenAIProvider and
the real openai SDK over HTTP). The stub counts the requests it answered, so the bench can check
that the metered provider (meter.py) saw every one of them.
"""
from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATH = "/v1/chat/completions"
_ids = itertools.count(1)


@dataclass(frozen=True)
class Answer:
    """What a model driver says: text, or tool calls as (name, arguments JSON)."""

    content: str | None = None
    tool_calls: tuple[tuple[str, str], ...] = ()


Driver = Callable[[dict[str, Any]], Answer]


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    # Keep-alive: the SDK reuses its connection, as it would with a real endpoint.
    protocol_version = "HTTP/1.1"
    # The headers and the body go out in two writes; with Nagle's algorithm on a kept-alive connection
    # the body waits for the client's delayed acknowledgement of the headers (about 40 ms on Linux).
    disable_nagle_algorithm = True

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.loads(raw or b"{}")
        if self.path.split("?", 1)[0] != CHAT_PATH or not isinstance(body, dict):
            self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        stub = self.server.stub
        try:
            answer = stub.driver(body)
        except Exception as exc:
            self._send(400, {"error": {"message": f"driver failed: {exc!r}", "type": "invalid_request_error"}})
            return
        with stub.lock:
            stub.calls += 1
        message: dict[str, Any] = {"role": "assistant", "content": answer.content}
        if answer.tool_calls:
            message["tool_calls"] = [{"id": f"call_{next(_ids)}", "type": "function",
                                      "function": {"name": name, "arguments": args}}
                                     for name, args in answer.tool_calls]
        self._send(200, {
            "id": f"chatcmpl-bench{next(_ids)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model") or "bench-model",
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if answer.tool_calls else "stop"}],
            # Usage is counted by the metered provider (meter.py) with the project's tokenizer.
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        })

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the bench's output to its table."""


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, stub: BenchStub) -> None:
        self.stub = stub
        super().__init__(("127.0.0.1", 0), _Handler)


class BenchStub:
    """Serve chat completions on a free local port; `driver` answers each one."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        # Requests answered: the bench checks it against what the metered provider counted.
        self.calls = 0
        self.lock = threading.Lock()
        self._server = _Server(self)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="bench-llm-stub", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def start(self) -> BenchStub:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
