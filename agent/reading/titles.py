"""Whether an unquoted title is read whole: its words may be the title's or a remark of the user's.

A title in quotes is the quoted text. Without quotes the reader cannot always tell where a title ends and the
rest of the message begins ("rename task 5 to Launch plan now", "create task Fix login bug for carol"); where
the words read two ways, the message is not read whole and the change is offered on a card that states the
title as read (reader.py). Remarks the reader knows end a title before them (clauses.ASIDES); these are the
cases it checks on a title as taken.
"""
from __future__ import annotations

import re

from .parts import Change, Parser, due, priority, status
from .tokens import tokenize

# A space inside Chinese ("写Q1规划 春节前", "官网改版 alice负责"): a title and a remark side by side.
_SPACED_ZH = re.compile(r"[\u4e00-\u9fff]\s+\S*[\u4e00-\u9fff]")
# What may follow an unquoted title without being taken for part of it: thanks and please alone.
_THANKS = frozenset({"please", "pls", "plz", "thanks", "thank", "thx", "ty", "cheers"})


def _holds_value(title: str) -> bool:
    """Whether a title holds a task's value or a word that leads to one: a day anywhere ("Call Mark tomorrow"),
    "due", "assigned to", "截止" anywhere, a priority written as one ("P1", "high priority"), or a status or a
    priority word ending it ("Kickoff blocked", "Triage urgent"), "by" before anything but its own word again
    ("… roadmap by Christmas"), or someone's word after the first ("… alice's request"). A word inside a title is the
    title's ("Fix high CPU usage", "Step by step"); in Chinese a value counts from two characters ("提高" holds no
    "高")."""
    q = Parser(title, tokenize(title))
    for k in range(q.n):
        # "by" leads to a day unless it joins a word to itself ("Step by step", "one by one").
        leads = [e for e in q.w(k, "glue.due", "read.assigned", "not.kidding")
                 if q.texts[k:e] != ("by",) or not (0 < k < q.n - 1 and q.texts[k - 1] == q.texts[k + 1])]
        # Someone's word inside a title ("… Pricing page v2 alice's request"): the title's, or who asked?
        owned = k > 0 and q.tokens[k].kind == "word" and q.texts[k].endswith("'s")
        days = [e for e, _ in due(q, k)]
        written = [e for e, _ in priority(q, k) if q.tokens[k].kind == "prio" or e - k > 1]
        ending = [e for e, _ in (*status(q, k), *priority(q, k)) if e == q.n]
        if owned or any(e - k > 1 or q.tokens[k].kind != "han" for e in (*leads, *days, *written, *ending)):
            return True
    return False


def _ends_in_courtesy(p: Parser, end: int, title: str) -> bool:
    """Whether courtesy of two words or more ends the title ("… Pricing page v2 no rush"): whose words are they?"""
    start = next((k for k in range(end - 1, -1, -1) if not title.endswith(p.raw(k, end))), -1) + 1
    return any(e == end and e - k > 1 for k in range(start + 1, end)
               for e in p.w(k, "courtesy", "closer.plain", "closer.ask"))


def _for_someone(p: Parser, end: int) -> bool:
    """Whether the title ends on "for" or "with" and one lower-case word no word of the grammar's ("… Fix login bug
    for carol"): someone to own it, or the title's own words?"""
    return end >= 2 and p.texts[end - 2] in ("for", "with") and p.tokens[end - 1].kind == "word" and \
        p.raw(end - 1, end).islower() and p.texts[end - 1] not in p.lex.known


def title_runs_on(p: Parser, end: int, found: Change) -> bool:
    """Whether an unquoted title is followed by a word it may hold, or ends on one ("… called Triage urgent", "… to
    Launch plan now"), or holds what may be a value of the task's ("Release notes due the 15th", "Kickoff P1",
    "Call Mark tomorrow", "交报告 明天截止"): the words may be the title's or the request's, so the message is
    not read whole."""
    if found.title is None or any(t.kind == "quote" and t.value == found.title for t in p.tokens):
        return False
    if _holds_value(found.title) or _SPACED_ZH.search(found.title) or _ends_in_courtesy(p, end, found.title) \
            or _for_someone(p, end):
        return True
    if end < p.n and p.tokens[end].kind == "word":
        return p.texts[end] not in _THANKS
    # Or the title ends on such a word ("… to Launch plan now"): the same two readings.
    last = end - 1
    return p.tokens[last].kind == "word" and p.texts[last] not in _THANKS and bool(
        list(p.w(last, "courtesy", "closer.plain", "closer.ask")))
