"""Browser tests run at the phone and the desktop size: a test that takes ``width`` runs at both.

Assertions wait up to 15 s (Playwright's default is 5 s): on a busy two-core CI machine a request
through the live server can take longer than 5 s without anything being wrong. A real failure still
fails, only later.
"""
from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .shell import VIEWPORTS

expect.set_options(timeout=15_000)


@pytest.fixture(params=sorted(VIEWPORTS))
def width(request: Any, page: Page) -> str:
    page.set_viewport_size(VIEWPORTS[request.param])
    return str(request.param)
