"""decompose: break a task into subtasks — planner, plan card, executor, bounded replan."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec
from pm_assistant.vocabulary import TASK_TABLE_PAGES

_SELECTED = {"scope": "selected"}

SPEC = CapabilitySpec(
    "decompose", "break a task into subtasks.", "Task breakdown", writes=True, order=30,
    example="break this task down",
    example_zh="把这个任务拆分成子任务", label_zh="拆解任务",
    quick_actions=(
        # A finished task has nothing left to break down.
        QuickActionSpec("decompose_task", "Break down", TASK_TABLE_PAGES, _SELECTED, rows=True,
                        hidden_for_status="done", row_name="Break down '{title}'"),
        QuickActionSpec("decompose_task", "Break down", ("task_detail",), _SELECTED, hidden_for_status="done"),
    ),
    # A long description or many subtasks are stored apart; the planner may look into them this many times.
    inspection_rounds=3)
