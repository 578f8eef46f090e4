"""help: a greeting or "what can you do?" is answered with what works on this page."""
from __future__ import annotations

from agent.registry import CapabilitySpec, never

SPEC = CapabilitySpec(
    "help", 'the user greets you or asks what you can do ("help", "hello", "what can you do?").', "Help",
    writes=False, order=60, node="agent.capabilities.help.node:page_help", may_interrupt=never,
    # A greeting or a plea for help only when it is the whole message: "help me delete task 4" is a delete.
    keywords=(r"^\W*(?:help|hello|hi|hey|good (?:morning|afternoon|evening)|你好|您好|帮助|帮忙|救命)\W*$",
              r"what (?:can|could|do) you do", r"what are you able to do", r"how (?:do|can|should) i use",
              r"what can i (?:ask|do) here", r"what (?:do|does) (?:this|the) assistant do", r"^\W*help me\W*$",
              "你能做什么", "你可以做什么", "能做什么", "能干什么", "怎么用", "如何使用", "有什么功能",
              "能帮我什么", "使用说明"))
