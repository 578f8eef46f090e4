"""risk's words for the deterministic reader: a message about tasks at risk of being late asks for it."""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"topic": ("risk", "risks", "at risk", "risky", "slip", "slipping", "delay", "delays", "delayed",
                  "at risk of delay", "likely to be late", "going to be late", "might be late")},
    zh={"topic": ("风险", "延期", "延误", "拖期", "可能延期", "会延期", "延期风险")},
)
