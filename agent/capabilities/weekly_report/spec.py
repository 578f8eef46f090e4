"""weekly_report: collect once, project, verify by an independent query, then (optionally) polish."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec

SPEC = CapabilitySpec(
    "weekly_report", 'write a weekly progress report (week: an ISO week like 2026-W48, "this" or "last").',
    "The weekly report", writes=False, order=40,
    example="weekly report for last week",
    example_zh="上周的周报", label_zh="周报",
    quick_actions=(
        # The button names its week, as its label does: the last full one ("this week" is asked in words).
        QuickActionSpec("weekly_report", "Last week's report", ("home", "project_list", "project_detail"),
                        {"week": "last"}),
    ))
