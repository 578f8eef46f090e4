"""Browser tests run at the phone and the desktop size: a test that takes ``width`` runs at both."""
from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from .shell import VIEWPORTS


@pytest.fixture(params=sorted(VIEWPORTS))
def width(request: Any, page: Page) -> str:
    page.set_viewport_size(VIEWPORTS[request.param])
    return str(request.param)
