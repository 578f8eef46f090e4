"""weekly_report's words for the deterministic reader: a message about a report asks for it."""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"topic": ("weekly report", "week report", "status report", "report", "weekly summary",
                  "progress report")},
    zh={"topic": ("周报", "报告", "每周报告", "进度报告")},
)
