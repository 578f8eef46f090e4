"""workload: open and overdue tasks per assignee (reports.workload), as a bar chart with each bar's list."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec, never

SPEC = CapabilitySpec(
    "workload", "show how many open and overdue tasks each assignee has (who has the most, one person's load).",
    "Workload per person", writes=False, order=55,
    example="who has the most open tasks?", example_zh="谁的任务最多？", label_zh="每个人的工作量",
    # Read only: a run of it never pauses for an approval, so it is served without a checkpointer.
    may_interrupt=never,
    quick_actions=(QuickActionSpec("workload", "Who has what", ("project_detail",)),))
