"""help's words for the deterministic reader: a greeting or "what can you do?" asks for help.

A greeting alone is the whole message ("help me delete task 4" is a delete, read by crud's rules).
"""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"greeting": ("help", "hello", "hi", "hey", "good morning", "good afternoon", "good evening", "help me",
                     "hi there", "hello there"),
        "topic": ("what can you do", "what could you do", "what do you do", "what are you able to do",
                  "how do i use this", "how do i use you", "how can i use this", "what can i ask",
                  "what can i do here", "what does this assistant do", "what does the assistant do")},
    zh={"greeting": ("你好", "您好", "帮助", "救命", "帮忙"),
        "topic": ("你能做什么", "你可以做什么", "能做什么", "能干什么", "怎么用",
                  "如何使用", "有什么功能", "能帮我什么", "使用说明")},
)
