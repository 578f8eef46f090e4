"""Every quick action, declared once: the page that shows it, the UI entry that sends it, its label,
and the capability and slots it routes to.

The fast path (fast_path.FAST_PATH), the sidebar's buttons, the row buttons, clarify's suggestions
and the README's button table are all derived from QUICK_ACTIONS.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from agent.page_context.schema import Origin
from agent.registry import BY_NAME
from pm_assistant.vocabulary import PAGES, Page, Status

from .decision import Slots


class QuickAction(NamedTuple):
    page: Page
    origin: Origin
    action: str
    label: str
    capability: str
    slots: Slots
    # The task status in which the button makes no sense (a row's Done on a done task): not shown.
    hidden_for_status: Status | None = None
    # A row button's accessible name, with the row's task title in place of {title}.
    row_name: str = ""

    @property
    def on_rows(self) -> bool:
        """A row button (each task row carries its task as the selection), not a sidebar button."""
        return self.origin == "task_row"

    def name_for(self, title: str) -> str:
        """The button's accessible name on the row of the task with this title."""
        return self.row_name.format(title=title) if self.row_name else self.label

    @property
    def asks_first(self) -> bool:
        return self.slots.operation == "delete"

    @property
    def changes_tasks(self) -> bool:
        """The button writes (an update, a delete, a plan of subtasks): a viewer is not offered it."""
        return self.slots.operation in ("update", "delete") or self.capability == "decompose"


_DONE = Slots(operation="update", status="done", scope="selected")
_DELETE = Slots(operation="delete", scope="selected")
_OVERDUE = Slots(preset="my_overdue", assignee_me=True)
_RISK = Slots(preset="at_risk_this_week")
_NONE = Slots()
_BREAK_DOWN = Slots(scope="selected")


def _rows(page: Page) -> tuple[QuickAction, ...]:
    """The row buttons of a page that lists tasks."""
    return (QuickAction(page, "task_row", "mark_done", "Done", "crud", _DONE, hidden_for_status="done",
                        row_name="Mark '{title}' done"),
            QuickAction(page, "task_row", "decompose_task", "Break down", "decompose", _BREAK_DOWN,
                        row_name="Break down '{title}'"),
            QuickAction(page, "task_row", "delete_task", "Delete", "crud", _DELETE, row_name="Delete '{title}'"))


QUICK_ACTIONS: Mapping[Page, tuple[QuickAction, ...]] = MappingProxyType({
    "home": (QuickAction("home", "workbench", "my_overdue", "My overdue tasks", "query", _OVERDUE),
             QuickAction("home", "workbench", "weekly_report", "Weekly report", "weekly_report", _NONE),
             QuickAction("home", "workbench", "risk_analysis", "Tasks at risk", "risk", _RISK)),
    "project_list": (
        QuickAction("project_list", "quick_button", "my_overdue", "My overdue tasks", "query", _OVERDUE),
        QuickAction("project_list", "quick_button", "weekly_report", "Weekly report", "weekly_report", _NONE),
        QuickAction("project_list", "quick_button", "risk_analysis", "Tasks at risk", "risk", _RISK)),
    "project_detail": (
        QuickAction("project_detail", "quick_button", "risk_analysis", "Tasks at risk", "risk", _RISK),
        QuickAction("project_detail", "quick_button", "weekly_report", "Weekly report", "weekly_report", _NONE),
        *_rows("project_detail")),
    "task_list": (
        QuickAction("task_list", "quick_button", "mark_visible_done", "Mark visible as done", "crud",
                    Slots(operation="update", status="done", scope="visible")),
        QuickAction("task_list", "quick_button", "my_overdue", "My overdue tasks", "query", _OVERDUE),
        *_rows("task_list")),
    "task_detail": (
        QuickAction("task_detail", "quick_button", "mark_done", "Mark done", "crud", _DONE,
                    hidden_for_status="done"),
        QuickAction("task_detail", "quick_button", "decompose_task", "Break down", "decompose", _BREAK_DOWN),
        QuickAction("task_detail", "quick_button", "delete_task", "Delete task", "crud", _DELETE)),
})
assert set(QUICK_ACTIONS) == set(PAGES), "every page declares its quick actions"
assert all(entry.capability in BY_NAME for entries in QUICK_ACTIONS.values() for entry in entries)


def quick_actions_for(page: Page, *, rows: bool = False) -> tuple[QuickAction, ...]:
    """Return a page's sidebar buttons, or with rows=True the buttons each of its task rows shows."""
    return tuple(entry for entry in QUICK_ACTIONS[page] if entry.on_rows == rows)


# A run names the action it was asked for; a sidebar label wins over a row's shorter one.
_ACTION_LABELS = {entry.action: entry.label
                  for entries in QUICK_ACTIONS.values() for entry in sorted(entries, key=lambda e: not e.on_rows)}


def quick_action_label(action: str) -> str:
    """Return the button label of a quick action (an unknown one in words)."""
    return _ACTION_LABELS.get(action, action.replace("_", " ").capitalize())
