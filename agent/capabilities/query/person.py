"""The person a query's list is narrowed to: the user ("mine"), nobody ("unassigned"), or someone named.

A name is found by the server among the members of the user's projects
(agent/tools/people_tools.py), never among all users and never guessed: a name that fits nobody
there, or several people, is asked about, naming the word.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import clarify
from agent.routing.decision import Slots
from agent.runtime import RunContext
from agent.tools.people_tools import members_named, people_project_ids
from agent.words.language import Language, in_each_language
from pm_assistant.markdown import literal

TEXTS = in_each_language(
    en={"unknown": "I couldn't find anyone called “{name}” among the members of your projects, so I did not list "
                   "anything. Who do you mean? Give their username as it appears on the task list.",
        "several": "Several members of your projects go by “{name}”: {names}. Which one? Give the username.",
        "join": ", "},
    zh={"unknown": "在你的项目成员中找不到“{name}”，所以没有列出任务。你指的是谁？请给出任务列表上显示的用户名。",
        "several": "你的项目中有几位成员都叫“{name}”：{names}。是哪一位？请给出用户名。", "join": "、"},
)


@dataclass(frozen=True)
class Person:
    value: int | str | None  # the task filter's assignee: a user id, "me", "none", or None (anyone)
    name: str | None = None  # the username the answer names


def assignee_filter(runtime: Runtime[RunContext], slots: Slots, language: Language) -> Person | dict[str, Any]:
    """The assignee the list is narrowed to, or the outcome that asks who was meant."""
    if slots.unassigned:
        return Person("none")
    if slots.assignee_me or not slots.assignee:
        return Person("me" if slots.assignee_me else None)
    steps, words = runtime.context.tools, TEXTS[language]
    steps.read("people", "members_named", members_named, scope=people_project_ids, name=slots.assignee)
    found = steps.data("people")["items"]
    if len(found) == 1:
        return Person(found[0]["id"], found[0]["username"])
    if not found:
        return clarify(words["unknown"].format(name=literal(slots.assignee)), unknown=slots.assignee)
    names = words["join"].join(f"{p['username']} ({p['name']})" for p in found[:5])
    return clarify(words["several"].format(name=literal(slots.assignee), names=names))
