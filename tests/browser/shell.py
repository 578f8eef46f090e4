"""Browser-test helpers for the assistant shell: the two viewports, axe-core and screenshots."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, ViewportSize, expect

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SHOTS = Path(__file__).resolve().parents[2] / "test-results"

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1440, "height": 900}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page as it is now and return its violations of any impact."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
    # A toast fading in is briefly low in contrast: let finite animations end before measuring.
    page.evaluate("""() => Promise.all(document.getAnimations()
        .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map(a => a.finished.catch(() => null)))""")
    result: dict[str, Any] = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"]]


def assert_accessible(page: Page) -> None:
    """Fail with axe-core's findings unless the page state has none."""
    violations = axe_violations(page)
    assert violations == [], violations


def shot(page: Page, name: str) -> Path:
    """Save a screenshot of the viewport under test-results/ and return its path."""
    SHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    path = SHOTS / f"{name}-{width}.png"
    page.screenshot(path=str(path))
    return path


def focused(page: Page) -> dict[str, Any]:
    """Describe the focused element: its classes, id, entity row and action."""
    return page.evaluate("""() => {
        const el = document.activeElement;
        const row = el && el.closest('[data-entity-id]');
        return {cls: el ? el.className : '', id: el ? el.id : '', tag: el ? el.tagName : '',
                row: row ? row.dataset.entityId : null, action: el ? el.getAttribute('data-assistant-action') : null};
    }""")


def transcript_at_bottom(page: Page) -> bool:
    """Tell whether the transcript is scrolled to its newest message."""
    return page.evaluate("""() => { const t = document.getElementById('assistant-transcript');
        return t.scrollHeight - t.scrollTop - t.clientHeight < 4; }""")


def wait_until(page: Page, condition: Callable[[], bool], seconds: float = 15) -> bool:
    """Poll a server-side condition (the database, the stub model) while the page goes on; its last value."""
    for _ in range(int(seconds * 10)):
        if condition():
            return True
        page.wait_for_timeout(100)
    return condition()


def open_assistant(page: Page) -> None:
    """Open the assistant if it is closed (it starts closed on narrow screens)."""
    if not page.locator("#assistant").is_visible():
        page.click("#assistant-toggle")
    expect(page.locator("#assistant")).to_be_visible()
