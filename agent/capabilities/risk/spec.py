"""risk: deterministic delay-risk scores from server facts, then a short narrative under the number rule."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec, never

SPEC = CapabilitySpec(
    "risk", "find tasks likely to be late.", "Delay-risk analysis", writes=False, order=50,
    example="which tasks are at risk?",
    example_zh="哪些任务有延期风险？", label_zh="延期风险分析", may_interrupt=never,
    quick_actions=(
        QuickActionSpec("risk_analysis", "Tasks at risk", ("home", "project_list", "project_detail"),
                        {"preset": "at_risk_this_week"}),
    ))
