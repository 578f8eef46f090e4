"""The plan-tool registry: every tool a plan may name, declared once with its argument schema.

An argument typed ``Binding`` is an id the runtime fills in from an earlier step's result or
from the selected task; the planner can only point at it, never type it. Tools that change a
task that already exists take the checklist arguments ``expected_title`` / ``expected_status``,
which the executor compares with the database before it acts.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType, NoneType, UnionType
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

from agent.routing.decision import Priority, Status
from agent.tools.binding import Binding

from . import tools as subtask_tools

# What every plan tool returns (subtask_tools.subtask_row): the fields a binding's path may name.
RESULT_FIELDS = ("id", "key", "title", "status", "priority", "due_date", "assignee", "assignee_name", "progress",
                 "project", "project_id", "parent_id")
# The fields of a result that hold a task id: the only values a bound argument may receive.
TASK_ID_FIELDS = ("id", "parent_id")


class _Args(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _Checklist(_Args):
    expected_title: str | None = Field(None, max_length=300, description="The task's title as you believe it is.")
    expected_status: Status | None = Field(None, description="The task's status as you believe it is.")


class CreateSubtaskArgs(_Args):
    parent_id: Binding = Field(description="The task to put it under: the selected task or an earlier new subtask.")
    title: str = Field(min_length=1, max_length=300)
    due_date: date | None = Field(None, description="YYYY-MM-DD, or null.")
    priority: Priority | None = None
    assignee: str | None = Field(None, description="Username of a project member, or null.")


class SetDueDateArgs(_Checklist):
    task_id: Binding = Field(description="The task whose due date to set.")
    due_date: date = Field(description="YYYY-MM-DD.")


class AssignArgs(_Checklist):
    task_id: Binding = Field(description="The task to assign.")
    assignee: str = Field(description="Username of a project member.")


class SetPriorityArgs(_Checklist):
    task_id: Binding = Field(description="The task whose priority to set.")
    priority: Priority


@dataclass(frozen=True)
class PlanTool:
    name: str
    description: str
    args: type[_Args]
    fn: Callable[..., dict[str, Any]]

    @property
    def bound_args(self) -> tuple[str, ...]:
        """The arguments that are ids, filled from bindings."""
        return tuple(n for n, f in self.args.model_fields.items() if f.annotation is Binding)

    @property
    def changes_existing(self) -> bool:
        """Whether the tool changes a task that may exist already (so it carries the checklist)."""
        return issubclass(self.args, _Checklist)


PLAN_TOOLS: Mapping[str, PlanTool] = MappingProxyType({t.name: t for t in (
    PlanTool("create_subtask", "Create a subtask under a task.", CreateSubtaskArgs, subtask_tools.create_subtask),
    PlanTool("set_due_date", "Set the due date of a task.", SetDueDateArgs, subtask_tools.set_due_date),
    PlanTool("assign", "Assign a task to a project member.", AssignArgs, subtask_tools.assign),
    PlanTool("set_priority", "Set the priority of a task.", SetPriorityArgs, subtask_tools.set_priority),
)})

BINDING_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["from_step", "path"],
    "properties": {
        "from_step": {"type": "string", "description": '"selected" for the selected task, or an earlier step id.'},
        "path": {"type": "string", "description": 'Where in that result: "$.id" for its task id.'},
    },
}


def _schema_of(annotation: Any) -> dict[str, Any]:
    """The strict JSON schema of one argument type (strings, dates, enums, bindings, nullable)."""
    if annotation is Binding:
        return BINDING_SCHEMA
    if get_origin(annotation) in (Union, UnionType):
        [inner] = [a for a in get_args(annotation) if a is not NoneType]
        schema = _schema_of(inner)
        return {**schema, "type": [schema["type"], "null"],
                **({"enum": [*schema["enum"], None]} if "enum" in schema else {})}
    if get_origin(annotation) is Literal:
        return {"type": "string", "enum": list(get_args(annotation))}
    if annotation is date:
        return {"type": "string", "description": "YYYY-MM-DD"}
    if annotation is str:
        return {"type": "string"}
    raise TypeError(f"no plan schema for {annotation!r}")


def args_schema(tool: PlanTool) -> dict[str, Any]:
    """The strict schema of a tool's arguments: every property required, null where optional."""
    properties = {}
    for name, info in tool.args.model_fields.items():
        schema = _schema_of(info.annotation)
        properties[name] = {**schema, "description": info.description} if info.description else schema
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties}


def plan_schema() -> dict[str, Any]:
    """The planner's structured output: {"steps": [...]}, each step one of the registry's tools."""
    steps = [{
        "type": "object", "additionalProperties": False, "required": ["id", "tool", "args"],
        "properties": {"id": {"type": "string", "description": "s1, s2, … in order."},
                       "tool": {"type": "string", "enum": [tool.name]}, "args": args_schema(tool)},
    } for tool in PLAN_TOOLS.values()]
    return {"type": "object", "additionalProperties": False, "required": ["steps"],
            "properties": {"steps": {"type": "array", "items": {"anyOf": steps}}}}
