"""Browser tests run at the phone and the desktop size: a test that takes ``width`` runs at both.

Assertions wait up to 15 s (Playwright's default is 5 s): on a busy two-core CI machine a request
through the live server can take longer than 5 s without anything being wrong. A real failure still
fails, only later.

A test ends only when the page has no request in flight: a request the server is still answering
when the test's data is flushed would write into the flush (a deadlock on PostgreSQL, a foreign-key
error on SQLite) and fail the next test.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from .shell import VIEWPORTS

expect.set_options(timeout=15_000)


@pytest.fixture(params=sorted(VIEWPORTS))
def width(request: Any, page: Page) -> str:
    page.set_viewport_size(VIEWPORTS[request.param])
    return str(request.param)


# What a page fetches and waits for; an EventSource (the sidebar's stream) stays open by design.
_AWAITED = {"document", "fetch", "xhr"}


@pytest.fixture(autouse=True)
def _no_request_in_flight_at_the_end(live_server: Any, page: Page) -> Iterator[None]:
    """After the test (and before the live server's data is flushed), wait for the page's requests."""
    pending: set[Request] = set()
    def started(request: Request) -> None:
        if request.resource_type in _AWAITED:
            pending.add(request)

    def ended(request: Request) -> None:
        pending.discard(request)

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)
    yield
    deadline = time.monotonic() + 30
    while pending and time.monotonic() < deadline and not page.is_closed():
        page.wait_for_timeout(100)
