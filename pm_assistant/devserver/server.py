"""Django's development server with TCP_NODELAY on every connection it accepts.

The server writes an answer's headers and its body in two sends. On a kept-alive connection (a
browser's, httpx's) Nagle's algorithm then holds the body back until the client acknowledges the
headers, which the client delays by up to 40 ms: every request after a connection's first waited
that long (bench/dev_server.py prints it). With TCP_NODELAY the body goes out at once.
"""
from __future__ import annotations

import socket
from typing import Any

from django.core.servers.basehttp import WSGIServer


class NoDelayWSGIServer(WSGIServer):
    """Django's WSGIServer; each accepted connection sends without waiting (TCP_NODELAY)."""

    def get_request(self) -> tuple[socket.socket, Any]:
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address
