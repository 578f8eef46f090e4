"""`manage.py runserver` (make demo) is WhiteNoise's, on a server that sends each answer at once."""
from __future__ import annotations

import socket

from django.core.management import get_commands, load_command_class
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer

from pm_assistant.devserver.server import NoDelayWSGIServer


def test_runserver_is_the_projects_and_leaves_static_files_to_whitenoise() -> None:
    command = load_command_class(get_commands()["runserver"], "runserver")
    assert command.server_cls is NoDelayWSGIServer  # type: ignore[attr-defined]
    # WhiteNoise's wrapper is kept: the app's middleware serves static files, as in production.
    assert command.create_parser("manage.py", "runserver").get_default("use_static_handler") is False


def _accepted(server_cls: type[WSGIServer]) -> int:
    """TCP_NODELAY on the connection a server of this class accepts."""
    server = server_cls(("127.0.0.1", 0), WSGIRequestHandler)
    try:
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=5):
            connection, _ = server.get_request()
            with connection:
                return connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        server.server_close()


def test_each_accepted_connection_sends_without_nagles_delay() -> None:
    assert _accepted(WSGIServer) == 0  # Django's own: the body waits for the headers' acknowledgement
    assert _accepted(NoDelayWSGIServer) != 0
