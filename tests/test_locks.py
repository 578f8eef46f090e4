"""The production lock (Dockerfile) and the development lock (make) pin the same versions."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;]+)")


def _pins(name: str) -> dict[str, str]:
    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        match = PIN.match(line)
        if match:
            pins[match.group(1).lower()] = match.group(2)
    return pins


def test_every_production_pin_matches_the_development_lock() -> None:
    prod, dev = _pins("requirements.prod.lock"), _pins("requirements.lock")
    assert prod, "requirements.prod.lock pins nothing"
    assert {name: version for name, version in prod.items() if dev.get(name) != version} == {}
    assert "pytest" in dev and "pytest" not in prod
