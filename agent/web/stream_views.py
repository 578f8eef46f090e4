"""The sidebar's event stream: a run's stage and the model's prose as they happen (server-sent events).

The page picks a stream token, opens ``GET /assistant/streams/<token>/`` with an EventSource and sends
its request with the token (header ``X-Assistant-Stream``); the run publishes under it (agent/run/live.py)
and this view relays the changes:

- ``run``   ``{"run_id", "stop_url"}`` once the run exists (Stop needs its id);
- ``stage`` ``{"label"}`` when the run enters a node ("Finding tasks", "Writing the answer", ...);
- ``text``  ``{"delta"}`` the next piece of the model's prose, plain text the page shows as text;
- ``end``   ``{}`` when the run has finished; the request's own response then carries the whole,
  sanitised reply, which replaces the streamed text.

The request itself still answers with the rendered run: the stream is only a preview of it. A token
another user's run publishes under is a 404. Each open stream holds a server thread, so a user may
hold STREAMS_PER_USER_MAX at once; one more is a 429 (the page's request is answered all the same).
"""
from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.views.decorators.http import require_GET

from agent.run.live import live_read
from pm_assistant.vocabulary import STREAMS_PER_USER_MAX

_POLL_SECONDS = 0.1
# A request that never arrives (the page gave up before sending it) ends the stream after this.
_WAIT_FOR_RUN_SECONDS = 15.0
_KEEP_ALIVE_SECONDS = 15.0


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


def _stream_life() -> float:
    """The longest a stream stays open: the run's deadline and a margin."""
    return settings.AGENT_RUN_DEADLINE_SECONDS + 30


def _open_streams_key(user_id: int) -> str:
    return f"assistant:open-streams:{user_id}"


def _take_stream(user_id: int) -> bool:
    """Count one more open stream for the user; False (and nothing counted) past the limit."""
    key = _open_streams_key(user_id)
    # The count expires with the longest stream, so a worker that died mid-stream cannot leave it high.
    timeout = int(_stream_life()) + 30
    cache.add(key, 0, timeout=timeout)
    try:
        taken = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=timeout)
        taken = 1
    # Each new stream renews the expiry: the count outlives the newest stream, and a key Redis made
    # anew on incr (it had just expired) gets one too.
    cache.touch(key, timeout)
    if taken > STREAMS_PER_USER_MAX:
        _give_back_stream(user_id)
        return False
    return True


def _give_back_stream(user_id: int) -> None:
    try:
        if cache.decr(_open_streams_key(user_id)) < 0:
            cache.delete(_open_streams_key(user_id))
    except ValueError:  # the count expired meanwhile: nothing to give back
        pass


class _OpenStream:
    """The events of one stream; closing it (the server does, when the stream ends or the client goes
    away, even before its first event) gives its place back once."""

    def __init__(self, token: str, user_id: int) -> None:
        self._events, self._user_id, self._open = _relay(token, user_id), user_id, True

    def __iter__(self) -> Iterator[str]:
        return self._events

    def close(self) -> None:
        if self._open:
            self._open = False
            self._events.close()
            _give_back_stream(self._user_id)


def _relay(token: str, user_id: int) -> Generator[str, None, None]:
    """Relay the run's snapshot changes until it finishes, its deadline passes or it never starts."""
    yield "retry: 5000\n\n"
    started = time.monotonic()
    ends = started + _stream_life()
    run_id, stage, sent, quiet_since = None, "", 0, started
    while time.monotonic() < ends:
        snapshot = live_read(token)
        if snapshot is None and run_id is None and time.monotonic() - started > _WAIT_FOR_RUN_SECONDS:
            break
        if snapshot is not None and snapshot.get("owner") == user_id:
            if snapshot["run_id"] != run_id:
                run_id = snapshot["run_id"]
                yield _event("run", {"run_id": run_id, "stop_url": reverse("assistant-stop", args=[run_id])})
            if snapshot["stage"] != stage:
                stage = snapshot["stage"]
                yield _event("stage", {"label": stage})
            text: str = snapshot["text"]
            if len(text) > sent:
                yield _event("text", {"delta": text[sent:]})
                sent, quiet_since = len(text), time.monotonic()
            if snapshot["finished"]:
                break
        if time.monotonic() - quiet_since > _KEEP_ALIVE_SECONDS:
            quiet_since = time.monotonic()
            yield ": still working\n\n"
        time.sleep(_POLL_SECONDS)
    yield _event("end", {})


@login_required
@require_GET
def sidebar_stream(request: HttpRequest, token: UUID) -> HttpResponseBase:
    """Stream the stage and prose of the run the page sends under `token`."""
    user_id: int = request.user.pk  # type: ignore[assignment]  # login_required let only users in
    snapshot = live_read(str(token))
    if snapshot is not None and snapshot.get("owner") != user_id:
        raise Http404("No such stream.")
    if not _take_stream(user_id):
        return JsonResponse({"error": {
            "code": "too_many_streams",
            "message": f"You have {STREAMS_PER_USER_MAX} assistant streams open already; "
                       "close a tab or wait for a run to finish.", "fields": {}}}, status=429)
    response = StreamingHttpResponse(_OpenStream(str(token), user_id), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    # A proxy in front (nginx) must pass each event on at once, not buffer the stream.
    response["X-Accel-Buffering"] = "no"
    return response
