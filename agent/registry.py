"""Every capability, declared once: its name, graph node, router line, label and whether it writes.

The router's Literal and JSON schema, the router prompt's list, the offline rules, the graph's
node table, the "not built yet" answer and the generated docs are all derived from CAPABILITIES.
This module imports nothing of the agent, so every layer may read it; nodes are named by their
import path and resolved when the graph is built.

To add a capability: add a row here and write its node; nothing else lists capabilities.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal


def _never(slots: Any) -> bool:
    return False


def _always(slots: Any) -> bool:
    return True


def _crud_asks(slots: Any) -> bool:
    # A delete asks first; a change to the visible rows asks above the bulk threshold.
    return slots is None or slots.operation == "delete" or slots.scope == "visible"


# The fields an update may change: its kind names each with the value it gets.
_UPDATE_FIELDS = ("status", "priority", "due_date")


def _crud_kind(slots: Any) -> str | None:
    """What a crud route would change, in words: the operation, its target and each value it sets.

    A create names the values it sets too, so a model cannot add a status, priority or due date the
    user's words did not give without the card asking (the title is the user's text, not compared).
    """
    values = {name.replace("_", " "): getattr(slots, name) for name in _UPDATE_FIELDS}
    changes = [f"{name} {value}" for name, value in values.items() if value is not None]
    if slots.operation == "create":
        return "create a task" + (f": {', '.join(changes)}" if changes else "")
    if slots.operation not in ("update", "delete"):
        return None
    if slots.scope == "visible":
        target = "the visible tasks"
    else:
        target = f"task {slots.task_id}" if slots.task_id is not None else "the selected task"
    if slots.operation == "delete":
        return f"delete {target}"
    return f"update {target}: " + (", ".join(changes) or "nothing")


@dataclass(frozen=True)
class CapabilitySpec:
    name: str
    # "module:function" of the graph node, or None while the capability is routed but not built.
    node: str | None
    # One line in the router prompt: what the capability does and which slots it reads.
    description: str
    # How users see it named ("The weekly report is not available yet").
    label: str
    # Whether the capability may change data (docs, and the intent check on model-routed writes).
    writes: bool
    # Offline rules: patterns (regular expressions, matched as whole words in the lower-cased message)
    # that select this capability, with the slots they set. Empty: the offline rules have their own.
    keywords: tuple[str, ...] = ()
    keyword_slots: Mapping[str, Any] = field(default_factory=dict)
    # A request a user may type for it, as help shows it ("" for capabilities help does not offer).
    example: str = ""
    # Whether a run with these slots may pause (an approval card, a background hand-off) and so must
    # be checkpointed to resume; a run that cannot pause is served without a checkpointer.
    may_interrupt: Callable[[Any], bool] = _always
    # For a capability that writes: the kind of write a route's slots ask for, in words (None: these
    # slots write nothing). The intent check compares the model's kind with the offline rules' kind.
    # Unset, every route of a writing capability is one kind, named after it.
    kind_of_write: Callable[[Any], str | None] | None = None

    def write_kind(self, slots: Any) -> str | None:
        """The kind of write these slots ask for; None when they write nothing."""
        if not self.writes:
            return None
        return self.name if self.kind_of_write is None else self.kind_of_write(slots)

    def matches(self, text: str) -> bool:
        """Tell whether the offline rules read this capability in a lower-cased message."""
        # Latin words match whole; Chinese has no spaces between words, so its patterns match anywhere.
        return any(re.search(rf"(?<![a-z0-9_])(?:{pattern})(?![a-z0-9_])", text) for pattern in self.keywords)


CAPABILITIES: tuple[CapabilitySpec, ...] = (
    CapabilitySpec(
        "crud", "agent.capabilities.crud:crud",
        "create, update or delete tasks (set operation; for updates the new status/priority/due date).",
        "Changing tasks", writes=True, example='create task "Write release notes" due 2026-12-15 P1',
        may_interrupt=_crud_asks, kind_of_write=_crud_kind),
    CapabilitySpec(
        "query", "agent.capabilities.query:query",
        "find or list tasks (status_filter, priority_filter, assignee_me, or preset my_overdue), or describe "
        'one task (scope "selected"); project_name or scope "project" narrows to one project.',
        "Finding tasks", writes=False, example="what is overdue in Website Redesign?",
        may_interrupt=_never),
    CapabilitySpec(
        "decompose", "agent.capabilities.decompose:decompose", "break a task into subtasks.", "Task breakdown",
        writes=True,
        keywords=("breakdown", "decompose", "split", "subtasks", r"break\b.{0,30}\bdown", "拆解", "拆分", "分解",
                  "子任务"),
        keyword_slots={"scope": "selected"}, example="break this task down"),
    CapabilitySpec(
        "weekly_report", "agent.capabilities.weekly_report:weekly_report",
        'write a weekly progress report (week: an ISO week like 2026-W48, "this" or "last").',
        "The weekly report", writes=False,
        keywords=("weekly report", "week report", "status report", "report", "周报", "报告"),
        example="weekly report for last week"),
    CapabilitySpec(
        "risk", "agent.capabilities.risk:risk", "find tasks likely to be late.", "Delay-risk analysis", writes=False,
        keywords=("risk", "at risk", "slip", "slipping", "delay", "delays", "delayed", "风险", "延期", "延误", "拖期"),
        example="which tasks are at risk?", may_interrupt=_never),
    CapabilitySpec(
        "help", "agent.capabilities.clarify:page_help",
        'the user greets you or asks what you can do ("help", "hello", "what can you do?").',
        "Help", writes=False, may_interrupt=_never,
        # A greeting or a plea for help only when it is the whole message: "help me delete task 4" is a delete.
        keywords=(r"^\W*(?:help|hello|hi|hey|good (?:morning|afternoon|evening)|你好|您好|帮助|帮忙|救命)\W*$",
                  r"what (?:can|could|do) you do", r"what are you able to do", r"how (?:do|can|should) i use",
                  r"what can i (?:ask|do) here", r"what (?:do|does) (?:this|the) assistant do", r"^\W*help me\W*$",
                  "你能做什么", "你可以做什么", "能做什么", "能干什么", "怎么用", "如何使用", "有什么功能",
                  "能帮我什么", "使用说明")),
    CapabilitySpec(
        "clarify", "agent.capabilities.clarify:clarify",
        "the request is unclear or outside these capabilities.", "Asking back", writes=False,
        may_interrupt=_never),
)
# What help offers in words, besides the page's quick actions: every capability with an example.
HELP_EXAMPLES: tuple[CapabilitySpec, ...] = tuple(spec for spec in CAPABILITIES if spec.example)
BY_NAME: Mapping[str, CapabilitySpec] = MappingProxyType({spec.name: spec for spec in CAPABILITIES})
NAMES: tuple[str, ...] = tuple(BY_NAME)
assert len(NAMES) == len(CAPABILITIES), "capability names are unique"

if TYPE_CHECKING:
    CapabilityName = str
else:
    # A Literal built from the table: pydantic validates and documents it like a written-out one.
    CapabilityName = Literal[NAMES]


def router_capability_lines() -> str:
    """The router prompt's list of capabilities, one line each."""
    return "\n".join(f"- {spec.name}: {spec.description}" for spec in CAPABILITIES)
