"""The query's answer templates, in each language an answer is written in (agent.language).

Figures and task keys come from the result the server read; only the words around them differ.
"""
from __future__ import annotations

from typing import Any

from agent.language import Language, in_each_language
from agent.routing.decision import Slots
from pm_assistant.markdown import quoted

TEXTS = in_each_language(
    en={"what_mine": "overdue tasks assigned to you", "what_any": "matching tasks",
        "one_mine": "overdue task assigned to you", "one_any": "matching task",
        "more": ", and {n} more", "none": "No {what}.", "found": "{count} {what}: {titles}{more}.",
        "join": "; "},
    zh={"what_mine": "分配给你的逾期任务", "what_any": "符合条件的任务",
        "one_mine": "分配给你的逾期任务", "one_any": "符合条件的任务",
        "more": "，另有 {n} 个", "none": "没有{what}。", "found": "共 {count} 个{what}：{titles}{more}。",
        "join": "；"},
)
NAMED = 3


def template_reply(result: dict[str, Any], slots: Slots, language: Language = "en") -> str:
    """The answer without a model: how many tasks were found and the first few by key and title."""
    count = result["count"]
    words = TEXTS[language]
    mine = slots.preset == "my_overdue"
    if count == 0:
        return words["none"].format(what=words["what_mine" if mine else "what_any"])
    what = words[("one_" if count == 1 else "what_") + ("mine" if mine else "any")]
    titles = words["join"].join(f"{r['key']} {quoted(r['title'])}" for r in result["items"][:NAMED])
    more = words["more"].format(n=count - NAMED) if count > NAMED else ""
    return words["found"].format(count=count, what=what, titles=titles, more=more)
