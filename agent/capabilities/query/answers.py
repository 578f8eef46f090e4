"""The query's answer templates, in each language an answer is written in (agent.language).

Figures and task keys come from the result the server read; only the words around them differ.
"""
from __future__ import annotations

from typing import Any

from agent.language import Language
from agent.routing.decision import Slots
from pm_assistant.markdown import quoted

# The tasks counted, by whether the request was "my overdue" (True) or any other query.
_WHAT: dict[Language, dict[bool, str]] = {
    "en": {True: "overdue tasks assigned to you", False: "matching tasks"},
    "zh": {True: "分配给你的逾期任务", False: "符合条件的任务"},
}
# How many more there are than the three named.
_MORE: dict[Language, str] = {"en": ", and {n} more", "zh": "，另有 {n} 个"}
_NONE: dict[Language, str] = {"en": "No {what}.", "zh": "没有{what}。"}
_FOUND: dict[Language, str] = {"en": "{count} {what}: {titles}{more}.", "zh": "共 {count} 个{what}：{titles}{more}。"}
_TITLES_JOIN: dict[Language, str] = {"en": "; ", "zh": "；"}
NAMED = 3


def template_reply(result: dict[str, Any], slots: Slots, language: Language = "en") -> str:
    """The answer without a model: how many tasks were found and the first few by key and title."""
    count = result["count"]
    what = _WHAT[language][slots.preset == "my_overdue"]
    if count == 0:
        return _NONE[language].format(what=what)
    titles = _TITLES_JOIN[language].join(f"{r['key']} {quoted(r['title'])}" for r in result["items"][:NAMED])
    more = _MORE[language].format(n=count - NAMED) if count > NAMED else ""
    return _FOUND[language].format(count=count, what=what, titles=titles, more=more)
