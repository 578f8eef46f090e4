"""query: find and list tasks, or describe one, counted and limited in SQL; explained from the results."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec, never

SPEC = CapabilitySpec(
    "query",
    "find or list tasks (status_filter, priority_filter, assignee_me, assignee, unassigned, due_after/due_before, "
    "or preset my_overdue / overdue for everyone's), or describe "
    'one task (scope "selected"); project_name or scope "project" narrows to one project.',
    "Finding tasks", writes=False, order=20, example="what is overdue in {project}?",
    example_zh="{project} 有哪些逾期任务？", label_zh="查找任务", may_interrupt=never,
    quick_actions=(
        QuickActionSpec("my_overdue", "My overdue tasks", ("home", "project_list", "task_list"),
                        {"preset": "my_overdue", "assignee_me": True}),
    ),
    inspection_rounds=3)
