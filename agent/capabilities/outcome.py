"""Small constructors for what a capability returns."""
from __future__ import annotations

from typing import Any

from agent.state import Outcome


def done(reply: str, **data: Any) -> dict[str, Outcome]:
    return {"outcome": {"status": "done", "reply": reply, "data": data}}


def clarify(reply: str, **data: Any) -> dict[str, Outcome]:
    return {"outcome": {"status": "needs_clarification", "reply": reply, "data": data}}


def failed(reply: str, code: str, **data: Any) -> dict[str, Outcome]:
    return {"outcome": {"status": "error", "reply": reply, "data": data, "error_code": code}}
