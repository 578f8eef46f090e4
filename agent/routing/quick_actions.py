"""Every quick action, collected from the capability that declares it (its spec.py): the page that shows
it, the UI entry that sends it, its label, and the capability and slots it routes to.

The fast path (fast_path.FAST_PATH), the sidebar's buttons, the row buttons, clarify's suggestions,
the tests' expected buttons and docs/USAGE.md's button table are all derived from QUICK_ACTIONS.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from agent.page_context.schema import Origin
from agent.registry import BY_NAME, CAPABILITIES
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
        """The button's capability writes (an update, a delete, a plan of subtasks): a viewer is not offered it."""
        return BY_NAME[self.capability].writes


def _origin(page: Page, *, rows: bool) -> Origin:
    """The UI entry a button sends from: a task row, the home workbench, or a page's quick buttons."""
    if rows:
        return "task_row"
    return "workbench" if page == "home" else "quick_button"


def _table() -> Mapping[Page, tuple[QuickAction, ...]]:
    """Collect the buttons the capabilities declare, page by page: in the registry's order, the last ones last."""
    found: dict[Page, list[tuple[bool, int, QuickAction]]] = {page: [] for page in PAGES}
    for spec in CAPABILITIES:
        for button in spec.quick_actions:
            for page in button.pages:
                entry = QuickAction(page, _origin(page, rows=button.rows), button.action, button.label, spec.name,
                                    Slots.model_validate(dict(button.slots)), button.hidden_for_status,
                                    button.row_name)
                found[page].append((button.last, spec.order, entry))
    # sorted() is stable: buttons of one capability keep the order their spec declares them in.
    return MappingProxyType({page: tuple(entry for *_, entry in sorted(entries, key=lambda e: e[:2]))
                             for page, entries in found.items()})


QUICK_ACTIONS: Mapping[Page, tuple[QuickAction, ...]] = _table()


def quick_actions_for(page: Page, *, rows: bool = False) -> tuple[QuickAction, ...]:
    """Return a page's sidebar buttons, or with rows=True the buttons each of its task rows shows."""
    return tuple(entry for entry in QUICK_ACTIONS[page] if entry.on_rows == rows)


# A run names the action it was asked for; a sidebar label wins over a row's shorter one.
_ACTION_LABELS = {entry.action: entry.label
                  for entries in QUICK_ACTIONS.values() for entry in sorted(entries, key=lambda e: not e.on_rows)}


def quick_action_label(action: str) -> str:
    """Return the button label of a quick action (an unknown one in words)."""
    return _ACTION_LABELS.get(action, action.replace("_", " ").capitalize())


# Quick actions that only read: an answer of one may be asked again from its Retry (the page's own button).
# One that writes is not: pressed again on another task's page, or over another filter, it would change
# tasks the user never chose.
READING_ACTIONS: frozenset[str] = frozenset(
    entry.action for entries in QUICK_ACTIONS.values() for entry in entries) - frozenset(
    entry.action for entries in QUICK_ACTIONS.values() for entry in entries if entry.changes_tasks)


def buttons_of(capability: str) -> tuple[QuickAction, ...]:
    """Return every button that routes to a capability, on every page that shows it."""
    return tuple(entry for entries in QUICK_ACTIONS.values() for entry in entries if entry.capability == capability)
