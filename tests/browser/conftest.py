"""Browser tests run at the phone and the desktop size: a test that takes ``width`` runs at both.

Assertions wait up to 15 s (Playwright's default is 5 s): on a busy two-core CI machine a request
through the live server can take longer than 5 s without anything being wrong. A real failure still
fails, only later.

A test ends only when the page has no request in flight: a request the server is still answering
when the test's data is flushed would write into the flush (a deadlock on PostgreSQL, a foreign-key
error on SQLite) and fail the next test.

The tests of one process share one browser context and one page, handed over clean: Chromium takes
about 0.3 s to start a page and its renderer, and a fresh context loads every script and style
sheet again, so each test paid about 0.6 s before its first assertion. Between tests the page leaves
the site (which closes its streams and timers), its storage, cookies, permissions, routes, listeners
and other pages go, and its viewport is reset; a page that broke or ended somewhere unexpected is
replaced by a new one.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Error, Page, Request, ViewportSize, expect

from .shell import VIEWPORTS

expect.set_options(timeout=15_000)


# Playwright's viewport for a context that names none.
_DEFAULT_VIEWPORT: ViewportSize = {"width": 1280, "height": 720}


class _SharedPage:
    """This process's browser context and page, reused by one test after another."""

    def __init__(self, browser: Browser, context_args: dict[str, Any]) -> None:
        self.browser, self.context_args = browser, context_args
        self.context: BrowserContext | None = None
        self.page: Page | None = None

    def take(self) -> Page:
        if self.context is None:
            self.context = self.browser.new_context(**self.context_args)
        if self.page is None or self.page.is_closed():
            self.page = self.context.new_page()
        viewport: ViewportSize = self.context_args.get("viewport") or _DEFAULT_VIEWPORT
        if self.page.viewport_size != viewport:
            self.page.set_viewport_size(viewport)
        return self.page

    def hand_back(self, origin: str, listeners: list[tuple[str, Callable[..., Any]]]) -> None:
        """Leave the page as a new one would be; replace it if that fails or its state is unknown."""
        page, context = self.page, self.context
        assert page is not None and context is not None
        try:
            for other in context.pages:
                if other is not page:
                    other.close()
            page.unroute_all(behavior="ignoreErrors")
            for event, handler in listeners:
                page.remove_listener(event, handler)
            if not page.url.startswith(origin):  # storage this page cannot reach from here: start afresh
                raise Error(f"the test ended at {page.url}")
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.goto("about:blank")
            context.clear_cookies()
            context.clear_permissions()
        except Error:
            self.close()

    def close(self) -> None:
        if self.context is not None:
            try:
                self.context.close()
            except Error:
                pass
        self.context = self.page = None


@pytest.fixture(scope="session")
def _shared_page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[_SharedPage]:
    shared = _SharedPage(browser, browser_context_args)
    yield shared
    shared.close()


@pytest.fixture
def page(_shared_page: _SharedPage, live_server: Any) -> Iterator[Page]:
    """The process's page, clean; the listeners a test adds with ``page.on`` are removed after it."""
    page = _shared_page.take()
    added: list[tuple[str, Callable[..., Any]]] = []
    on = page.on

    def tracked_on(event: str, handler: Callable[..., Any]) -> None:
        added.append((event, handler))
        on(event, handler)  # type: ignore[call-overload]

    page.on = tracked_on  # type: ignore[method-assign, assignment]
    try:
        yield page
    finally:
        del page.on
        _shared_page.hand_back(live_server.url, added)


@pytest.fixture
def context(page: Page) -> BrowserContext:
    return page.context


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
