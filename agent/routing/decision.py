"""The router's answer: which capability, with which slots, and how it was decided."""
from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Capability = Literal["crud", "query", "decompose", "weekly_report", "risk", "clarify"]
CAPABILITIES: tuple[Capability, ...] = ("crud", "query", "decompose", "weekly_report", "risk", "clarify")
Status = Literal["todo", "in_progress", "blocked", "done"]
Priority = Literal["P0", "P1", "P2", "P3"]


class Slots(BaseModel):
    """What the request is about. Ids appear only when the user typed them in the message."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    operation: Literal["create", "update", "delete"] | None = None
    task_id: int | None = Field(default=None, ge=1)
    title: str | None = Field(default=None, max_length=300)
    status: Status | None = None
    priority: Priority | None = None
    due_date: date | None = None
    scope: Literal["selected", "visible"] | None = None
    expected_title: str | None = Field(default=None, max_length=300)
    expected_status: Status | None = None
    status_filter: tuple[Status, ...] = ()
    priority_filter: tuple[Priority, ...] = ()
    assignee_me: bool = False
    preset: Literal["my_overdue", "at_risk_this_week"] | None = None
    # A report's ISO week ("2026-W48"), "this" week or the "last" full one; None means the last full week.
    week: str | None = Field(default=None, pattern=r"^(\d{4}-W\d{2}|this|last)$")


class Route(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    capability: Capability
    via: Literal["fast_path", "llm_router"]
    slots: Slots = Slots()
    confidence: float = 1.0
    reason: str = ""


def _nullable(schema: dict[str, object]) -> dict[str, object]:
    kind = schema["type"]
    out = {**schema, "type": [kind, "null"]}
    if "enum" in schema:
        out["enum"] = [*schema["enum"], None]  # type: ignore[misc]
    return out


STATUS_ENUM = ["todo", "in_progress", "blocked", "done"]
PRIORITY_ENUM = ["P0", "P1", "P2", "P3"]
_SLOT_PROPERTIES: dict[str, dict[str, object]] = {
    "operation": _nullable({"type": "string", "enum": ["create", "update", "delete"]}),
    "task_id": _nullable({"type": "integer", "description": "Only a task number the user typed."}),
    "title": _nullable({"type": "string"}),
    "status": _nullable({"type": "string", "enum": STATUS_ENUM}),
    "priority": _nullable({"type": "string", "enum": PRIORITY_ENUM}),
    "due_date": _nullable({"type": "string", "description": "YYYY-MM-DD"}),
    "scope": _nullable({"type": "string", "enum": ["selected", "visible"]}),
    "expected_title": _nullable({"type": "string", "description": "The title you believe the target has."}),
    "expected_status": _nullable({"type": "string", "enum": STATUS_ENUM}),
    "status_filter": {"type": "array", "items": {"type": "string", "enum": STATUS_ENUM}},
    "priority_filter": {"type": "array", "items": {"type": "string", "enum": PRIORITY_ENUM}},
    "assignee_me": {"type": "boolean"},
    "preset": _nullable({"type": "string", "enum": ["my_overdue", "at_risk_this_week"]}),
    "week": _nullable({"type": "string", "description": 'An ISO week like 2026-W48, "this" or "last".'}),
}
# Strict structured output: every property required, nullability spelled out.
ROUTE_SCHEMA: dict[str, object] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["capability", "confidence", "slots"],
    "properties": {
        "capability": {"type": "string", "enum": list(CAPABILITIES)},
        "confidence": {"type": "number", "description": "0 to 1"},
        "slots": {
            "type": "object",
            "additionalProperties": False,
            "required": list(_SLOT_PROPERTIES),
            "properties": _SLOT_PROPERTIES,
        },
    },
}
