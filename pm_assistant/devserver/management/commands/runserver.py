"""`runserver` as WhiteNoise's (static files served by the app's middleware) on NoDelayWSGIServer."""
from __future__ import annotations

from whitenoise.runserver_nostatic.management.commands.runserver import Command as NoStaticRunserver

from pm_assistant.devserver.server import NoDelayWSGIServer


class Command(NoStaticRunserver):
    server_cls = NoDelayWSGIServer
