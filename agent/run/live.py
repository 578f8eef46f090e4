"""A run as it happens, kept in the cache: its stage and streamed text for the sidebar, and a stop.

The browser names a stream with a token of its own when it sends a request; the run publishes a
small snapshot under it (owner, run id, stage, the text a model has streamed so far, finished) and
the sidebar's event stream (agent/web/stream_views.py) polls it. A stop is a flag per run that the run
reads between graph nodes and between the chunks of a streamed answer. With REDIS_URL the cache is
shared by every worker; without it (the embedded demo, one process) it is the process's memory.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from django.core.cache import cache

# Long enough for the slowest run to be followed to its end (a run's deadline is 30 s by default).
LIVE_TTL_SECONDS = 300
# Snapshots are written at most this often while text streams in, and stops read at most this often.
_PUBLISH_EVERY = 0.05
_STOP_CHECK_EVERY = 0.1


class RunStopped(Exception):
    """The run's owner asked it to stop: it ends at the next point between its nodes."""


def _live_key(token: str) -> str:
    return f"assistant-live:{token}"


def _stop_key(run_id: UUID | str) -> str:
    return f"assistant-stop:{run_id}"


def live_read(token: str) -> dict[str, Any] | None:
    """The snapshot published under the stream token, or None while there is none."""
    snapshot = cache.get(_live_key(token))
    return snapshot if isinstance(snapshot, dict) else None


def stop_request(run_id: UUID | str) -> None:
    """Ask the run to stop (the caller has checked it is the owner's and still running)."""
    cache.set(_stop_key(run_id), True, timeout=LIVE_TTL_SECONDS)


def stop_requested(run_id: UUID | str) -> bool:
    """Tell whether a stop was asked for the run."""
    return bool(cache.get(_stop_key(run_id)))


@dataclass
class RunLive:
    """The running side: publishes what the run is doing (when a browser follows it) and reads its stop flag."""

    run_id: UUID
    user_id: int
    # The browser's stream token; None when nobody follows the run (an API client, a background job).
    token: str | None = None
    # False for a run that commits once (agent.run.service): no one else sees it before it ends, so no stop
    # can be asked for it (run_stop does not find it) and its flag is never read.
    stoppable: bool = True
    _snapshot: dict[str, Any] = field(default_factory=dict)
    _published: float = 0.0
    _checked: float = 0.0
    _stopped: bool = False

    def open(self) -> None:
        """Publish the run's id, so the browser can ask to stop it."""
        if self.token is None:
            return
        self._snapshot = {"owner": self.user_id, "run_id": str(self.run_id), "stage": "", "text": "",
                          "finished": False}
        self._publish(force=True)

    def enter(self, label: str) -> None:
        """A node is about to run: stop here if the owner asked, else say what the run does now."""
        if self.cancelled(fresh=True):
            raise RunStopped(label)
        self.stage(label)

    def stage(self, label: str) -> None:
        if self._snapshot and self._snapshot["stage"] != label:
            self._snapshot["stage"] = label
            self._publish(force=True)

    def write(self, delta: str) -> None:
        if self._snapshot:
            self._snapshot["text"] += delta
            self._publish()

    def cancelled(self, *, fresh: bool = False) -> bool:
        """Tell whether the owner asked to stop; read from the cache at most every 0.1 s unless `fresh`."""
        if not self.stoppable:
            return False
        now = time.monotonic()
        if not self._stopped and (fresh or now - self._checked >= _STOP_CHECK_EVERY):
            self._checked = now
            self._stopped = stop_requested(self.run_id)
        return self._stopped

    def finish(self) -> None:
        """The run has stored its outcome: the browser's stream ends."""
        if self._snapshot:
            self._snapshot["finished"] = True
            self._publish(force=True)

    def _publish(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.token is None or (not force and now - self._published < _PUBLISH_EVERY):
            return
        self._published = now
        cache.set(_live_key(self.token), dict(self._snapshot), timeout=LIVE_TTL_SECONDS)
