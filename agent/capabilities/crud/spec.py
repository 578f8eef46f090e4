"""crud: create, update, assign, rename or delete tasks from the router's slots; deletes and bulk changes ask first."""
from __future__ import annotations

from typing import Any

from agent.registry import CapabilitySpec, QuickActionSpec
from pm_assistant.vocabulary import TASK_TABLE_PAGES

# The fields an update may change: its kind names each with the value it gets.
_UPDATE_FIELDS = ("status", "priority", "due_date")
_DONE = {"operation": "update", "status": "done", "scope": "selected"}
_DELETE = {"operation": "delete", "scope": "selected"}


def _asks(slots: Any) -> bool:
    # A delete asks first; a change to the visible rows asks above the bulk threshold.
    return slots is None or slots.operation == "delete" or slots.scope == "visible"


def _kind(slots: Any) -> str | None:
    """What a crud route would change, in words: the operation, its target and each value it sets.

    A create names the values it sets too, so a model cannot add a status, priority or due date the
    user's words did not give without the card asking (the title is the user's text, not compared).
    """
    values = {name.replace("_", " "): getattr(slots, name) for name in _UPDATE_FIELDS}
    changes = [f"{name} {value}" for name, value in values.items() if value is not None]
    if slots.operation == "create":
        return "create a task" + (f": {', '.join(changes)}" if changes else "")
    if slots.operation not in ("update", "delete", "assign", "unassign", "rename"):
        return None
    if slots.scope == "visible":
        target = "the visible tasks"
    else:
        target = f"task {slots.task_id}" if slots.task_id is not None else "the selected task"
    if slots.operation == "delete":
        return f"delete {target}"
    # A person and a title as the user wrote them, compared whole: a model cannot pick another.
    if slots.operation == "assign":
        return f"assign {target} to {' '.join((slots.assignee or '').split()).casefold() or 'nobody named'}"
    if slots.operation == "unassign":  # whom, when the user named them: the check is against that person
        named = " ".join((slots.assignee or "").split()).casefold()
        return f"unassign {target}" + (f" from {named}" if named else "")
    if slots.operation == "rename":
        return f"rename {target} to {' '.join((slots.title or '').split())!r}"
    return f"update {target}: " + (", ".join(changes) or "nothing")


SPEC = CapabilitySpec(
    "crud", "create, update or delete tasks (set operation; for updates the new status/priority/due date); "
    "assign (assignee), unassign or rename (title) one task.",
    "Changing tasks", writes=True, order=10, example='create task "Write release notes" due 2026-12-15 P1',
    example_zh="创建任务‘写发布说明’，2026-12-15 截止，P1", label_zh="修改任务",
    may_interrupt=_asks, kind_of_write=_kind,
    quick_actions=(
        QuickActionSpec("mark_done", "Done", TASK_TABLE_PAGES, _DONE, rows=True, hidden_for_status="done",
                        row_name="Mark '{title}' done"),
        QuickActionSpec("delete_task", "Delete", TASK_TABLE_PAGES, _DELETE, rows=True, row_name="Delete '{title}'",
                        last=True),
        QuickActionSpec("mark_visible_done", "Mark visible as done", ("task_list",),
                        {"operation": "update", "status": "done", "scope": "visible"}),
        QuickActionSpec("mark_done", "Mark done", ("task_detail",), _DONE, hidden_for_status="done"),
        QuickActionSpec("delete_task", "Delete task", ("task_detail",), _DELETE, last=True),
    ))
