"""The page-aware quick actions: the sidebar shows them as buttons and clarify offers them as suggestions.

Each entry names the action, its button label and the UI entry (origin) that sends it; the fast
path (FAST_PATH) routes every (origin, action) listed here. "task_detail" is the task list with a
task selected, where the sidebar offers actions on that task.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple


class QuickAction(NamedTuple):
    action: str
    label: str
    origin: str


QUICK_ACTIONS: Mapping[str, tuple[QuickAction, ...]] = MappingProxyType({
    "home": (QuickAction("my_overdue", "My overdue tasks", "workbench"),
             QuickAction("weekly_report", "Weekly report", "workbench"),
             QuickAction("risk_analysis", "Tasks at risk", "workbench")),
    "project_detail": (QuickAction("risk_analysis", "Tasks at risk this week", "quick_button"),
                       QuickAction("weekly_report", "Weekly report", "quick_button")),
    "task_list": (QuickAction("mark_visible_done", "Mark visible as done", "quick_button"),
                  QuickAction("my_overdue", "My overdue tasks", "quick_button")),
    "task_detail": (QuickAction("mark_done", "Mark done", "quick_button"),
                    QuickAction("decompose_task", "Break down", "quick_button"),
                    QuickAction("delete_task", "Delete task", "quick_button")),
})
