"""what_next's words for the deterministic reader: asking what to work on next asks for the ranking.

"work on next" names no project called "next": read offline, the page's project or all the user's
projects are ranked.
"""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"topic": ("what should i work on", "what should i do next", "what should i do first", "what do i do next",
                  "what to work on", "what to do next", "work on next", "what next", "what's next", "whats next",
                  "my next task", "prioritize my tasks", "prioritise my tasks", "what should i focus on",
                  "what should i tackle", "what should i pick up")},
    zh={"topic": ("接下来做什么", "接下来干什么", "接下来该做", "下一步做什么", "下一步该做", "先做哪个", "先做什么",
                  "应该先做", "我该做什么")},
    slots={"project_name": None},
)
