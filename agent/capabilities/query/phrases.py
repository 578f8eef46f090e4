"""query's words for the deterministic reader: asking to see tasks, and the filters a question may set.

"ask" opens a question or an order to show ("show", "which", "有哪些"); "noun" names what is listed
("tasks", "任务"). The filters (status, priority, assignee, due range, project, "mine") are the
reader's own words (agent/reading/lexicon.py), shared with the writes.
"""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"ask": ("show", "show me", "list", "find", "what", "what's", "what is", "what are", "which", "how many",
                "any", "get", "give me", "display", "are there", "is there", "do i have", "have i got", "pull up",
                "tell me", "let me see", "can i see", "search", "look up", "see", "view", "count",
                # "me" here is whom the list is for, not whose tasks: "find me the overdue tasks".
                "find me", "get me", "fetch me", "list me", "pull me up", "dig up", "bring up", "whats",
                "i'd like to see", "i would like to see", "i want to see", "i need to see", "i need", "need",
                "i need a list of", "need a list of", "a list of", "let me know"),
        "noun": ("task", "tasks", "work", "items", "issues", "tickets", "to-dos", "todos", "things", "stuff", "ones",
                 "anything", "something", "open items")},
    zh={"ask": ("哪些", "列出", "显示", "查找", "找", "找出", "多少", "看看", "有什么", "有哪些", "查询", "查看", "查",
                "给我看", "列一下", "什么", "几个", "看一下", "看下", "有没有", "请问", "查查", "列出来", "列", "瞧瞧"),
        "noun": ("任务", "工作", "事项", "事情", "活")},
)
