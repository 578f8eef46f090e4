"""The router's answer: which capability, with which slots, and how it was decided."""
from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agent.reading.reader import Mood
from agent.registry import NAMES, CapabilityName
from pm_assistant.vocabulary import Priority, Status

Preset = Literal["my_overdue", "overdue", "at_risk_this_week"]


# How a run was routed: by the quick-action table, or by the router model.
Via = Literal["fast_path", "llm_router"]

class Slots(BaseModel):
    """What the request is about. Ids appear only when the user typed them in the message."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    operation: Literal["create", "update", "delete", "assign", "unassign", "rename"] | None = None
    task_id: int | None = Field(default=None, ge=1, description="Only a task number the user typed.")
    title: str | None = Field(default=None, max_length=300)
    status: Status | None = None
    priority: Priority | None = None
    due_date: date | None = Field(default=None, description="YYYY-MM-DD")
    # selected: the task on the page (or the one typed); visible: the rows shown; project: the page's project.
    scope: Literal["selected", "visible", "project"] | None = None
    project_name: str | None = Field(default=None, max_length=100,
                                     description="A project the user named, as they wrote it.")
    expected_title: str | None = Field(default=None, max_length=300,
                                       description="The title you believe the target has.")
    expected_status: Status | None = None
    status_filter: tuple[Status, ...] = ()
    priority_filter: tuple[Priority, ...] = ()
    assignee_me: bool = False
    # A person the user named, as written: an assign's new assignee, or whose tasks a query lists. The
    # server finds them among the members of the user's projects; a name it cannot find is asked about.
    assignee: str | None = Field(default=None, max_length=60, description="As the user wrote it.")
    unassigned: bool = False
    # A query's first and last due day (inclusive).
    due_after: date | None = Field(default=None, description="YYYY-MM-DD")
    due_before: date | None = Field(default=None, description="YYYY-MM-DD")
    preset: Preset | None = None
    # A report's ISO week ("2026-W48"), "this" week or the "last" full one; None means the last full week.
    week: str | None = Field(default=None, pattern=r"^(\d{4}-W\d{2}|this|last)$",
                             description='An ISO week like 2026-W48, "this" or "last".')


class IntentCheck(BaseModel):
    """The intent check's verdict on a model-routed request (agent/routing/intent_check.py)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Literal["not_a_write", "agrees", "differs", "declined"]
    # The kind of write the model's route asks for, and the one the rules read in the message (None: no write).
    model_kind: str | None = None
    rules_kind: str | None = None
    # Whether the message asks (agent/reading/reader.py): "request" when read whole, "negated", "question",
    # "unread" (a write found in a message not read whole), None when it names no write.
    mood: Mood | None = None
    # The task a correction meant when the model wrote the one it took back ("set task 5 to blocked, sorry
    # I meant task 6": 6), the write being otherwise the same; else None.
    rules_task_id: int | None = None


class Route(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    capability: CapabilityName
    via: Via
    slots: Slots = Slots()
    confidence: float = 1.0
    reason: str = ""
    # Set by the route node on every model-routed request; None for a quick action (routed by table).
    intent: IntentCheck | None = None
    # A write the server proposed in an answer (workload's "Reassign" move), built from ids it checked:
    # the user pressed it, but never worded it, so it always waits on the card that states it.
    proposed: bool = False

    @property
    def write_unasked(self) -> bool:
        """Whether a write on this route must wait for approval: the model chose it and the user's words did
        not, or the server proposed it."""
        return self.proposed or (self.via == "llm_router" and (self.intent is None or self.intent.verdict != "agrees"))


# Keys a strict structured-output schema may not carry (OpenAI's subset of JSON Schema); the
# service checks lengths and bounds itself when it validates the answer against Slots.
_UNSUPPORTED = frozenset({"default", "title", "maxLength", "minimum", "format"})


def _strict(schema: Any) -> Any:
    """Return a JSON schema in the strict form: every property required, no extra keys, no defaults."""
    if isinstance(schema, list):
        return [_strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _strict(value) for key, value in schema.items() if key not in _UNSUPPORTED}
    if isinstance(schema.get("properties"), dict):  # property names are data, not schema keywords
        out["properties"] = {name: _strict(value) for name, value in schema["properties"].items()}
    options = out.pop("anyOf", None)
    if options is not None:
        # Optional[X] as one schema with a nullable type, the compact form strict output accepts.
        (kind,) = [option for option in options if option != {"type": "null"}]
        out = {**kind, **out, "type": [kind["type"], "null"]}
        if "enum" in kind:
            out["enum"] = [*kind["enum"], None]
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


SLOTS_SCHEMA: dict[str, Any] = _strict(Slots.model_json_schema())


# Strict structured output: every property required, nullability spelled out. Generated from
# Slots and the capability registry, so the schema cannot drift from what the service accepts.
def route_schema(names: tuple[str, ...] = NAMES) -> dict[str, Any]:
    """The router's structured-output schema over these capabilities (all of the registry's, but for a measurement)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["capability", "confidence", "slots"],
        "properties": {
            "capability": {"type": "string", "enum": list(names)},
            "confidence": {"type": "number", "description": "0 to 1"},
            "slots": SLOTS_SCHEMA,
        },
    }


ROUTE_SCHEMA: dict[str, Any] = route_schema()
