"""project_summary: a project's state from the report, risk and workload pipelines, checked, in a few lines."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec, never

SPEC = CapabilitySpec(
    "project_summary", "summarize how a project is doing: open and done tasks, this week's finished and slipped "
    'tasks, the top risks and who is overloaded (project_name, or scope "project" for the page\'s).',
    "The project summary", writes=False, order=45,
    example="summarize this project", example_zh="这个项目怎么样？", label_zh="项目概况",
    # Read only: a run of it never pauses for an approval, so it is served without a checkpointer.
    may_interrupt=never,
    quick_actions=(QuickActionSpec("project_summary", "Project summary", ("project_detail",), {"scope": "project"}),))
