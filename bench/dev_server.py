"""Benchmark the development server's kept-alive requests: Django's WSGIServer against NoDelayWSGIServer.

Serves a 3 KB page with each server class as `runserver` builds it (threaded), on loopback, and sends
`--requests` requests over one kept-alive httpx connection per round, alternating the two servers
(A B A B …). Prints each server's median time per request and the median per-round ratio.

    .venv/bin/python bench/dev_server.py [--rounds 7] [--requests 40]
"""
from __future__ import annotations

import argparse
import os
import socketserver
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pm_assistant.settings")

import django

django.setup()

from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer  # noqa: E402

from pm_assistant.devserver.server import NoDelayWSGIServer  # noqa: E402

BODY = b"<p>" + b"x" * 3000 + b"</p>"


def page(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(BODY)))])
    return [BODY]


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Keep the output to the figures."""


def ms_per_request(server_cls: type[WSGIServer], requests: int) -> float:
    threaded = type("WSGIServer", (socketserver.ThreadingMixIn, server_cls), {"daemon_threads": True})
    server = threaded(("127.0.0.1", 0), QuietHandler)
    server.set_app(page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.server_port}") as client:
            client.get("/")  # the connection is open: every request below reuses it
            start = time.perf_counter()
            for _ in range(requests):
                client.get("/").raise_for_status()
            return (time.perf_counter() - start) * 1000 / requests
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    django_ms, nodelay_ms, ratios = [], [], []
    for _ in range(args.rounds):
        a, b = ms_per_request(WSGIServer, args.requests), ms_per_request(NoDelayWSGIServer, args.requests)
        django_ms.append(a)
        nodelay_ms.append(b)
        ratios.append(b / a)
    print(f"{args.rounds} rounds of {args.requests} kept-alive requests for a {len(BODY)}-byte page")
    print(f"Django's WSGIServer   {statistics.median(django_ms):7.2f} ms per request")
    print(f"NoDelayWSGIServer     {statistics.median(nodelay_ms):7.2f} ms per request   "
          f"median ratio {statistics.median(ratios):.3f}x")


if __name__ == "__main__":
    main()
