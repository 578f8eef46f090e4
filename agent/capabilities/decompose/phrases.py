"""decompose's words for the deterministic reader: breaking one task down into subtasks.

"verb" takes the task after it ("break down task 5", "拆解任务5"); "after" may follow the task
("break task 5 down", "把任务5拆解一下"). English verbs are given in their plain form; the reader
knows their -ing and past forms.
"""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"verb": ("break down", "break", "decompose", "split", "split up", "break up", "divide", "chunk",
                 "give me a breakdown", "give me a breakdown of", "make a breakdown of", "make subtasks for"),
        "after": ("down", "up", "into subtasks", "into smaller tasks", "into steps", "into sub tasks", "into sub-tasks",
                  "down into subtasks", "down into steps", "up into subtasks", "into pieces", "into smaller pieces",
                  "into parts", "into smaller parts", "for me"),
        # What names a breakdown on its own, wherever it stands ("chop it up into subtasks").
        "into": ("into subtasks", "into smaller tasks", "into sub tasks", "into sub-tasks", "into steps")},
    zh={"verb": ("拆解", "拆分", "分解", "拆", "拆开", "细分"),
        "after": ("一下", "成子任务", "为子任务", "成几个子任务", "成小任务", "成步骤", "开", "开来", "拆解一下"),
        "into": ("成子任务", "为子任务", "成几个子任务", "成小任务", "成步骤")},
    slots={"scope": "selected"},
)
