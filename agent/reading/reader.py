"""Read a message whole: a request for one change, a change it negates or questions, or a change it names unread.

The grammar (grammar.py) reads the change; this module reads the message around it:

    request  := lead (frame)? lead change correction? tail
    negated  := lead ("don't" | "不要" | …) change tail        question := lead ("should I" | "要不要" | …) change tail

``lead`` and ``tail`` hold only courtesy and filler (lexicon.COURTESY) and closers ("please",
"thanks", "好吗", "吧"); a "?" or "吗" closes only a frame that asks ("could you …?", "能帮我…吗").
A change read whole in a request is ``request``: the only reading that lets a write run. A change
found inside a message the grammar cannot read whole (a condition, another person, a tense, an
emoji, a second task) is ``unread``: it is offered on a card, never run. Two tasks named without
a correction the grammar reads leave no change at all: the reader asks.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from typing import Any, Literal

from django.utils import timezone

from pm_assistant.one_line import one_line

from .clauses import RESTATED
from .corrections import retakes_value
from .gather import gathered
from .grammar import change, corrected, en_passive, verbless, zh_after_task
from .lexicon import FRAMES
from .parts import Change, Parser, Target, asks_assistant, target
from .people import antecedent
from .reads import read_capability, read_query
from .repair import repaired
from .titles import title_runs_on
from .tokens import Token, tokenize

# A change for every task but one ("… except this one", "除了这个任务"): which tasks is asked, never offered on the
# one named.
_EXCEPT = frozenset({"except", "besides"})
Mood = Literal["request", "negated", "question", "unread"]
_SEPARATORS = frozenset({",", ".", "!", "-", ";", ":"})
# Words a message that goes on would have next: ending on one, it was cut off.
_JOINS = frozenset({"and", "so", "then", "also", "or", "but", "plus", "because", "然后", "还有", "并且", "而且", "和"})
# How many tokens of courtesy, closers and marks a request's lead or tail may hold.
_AROUND = 24


@dataclass(frozen=True)
class WriteReading:
    change: Change
    mood: Mood


def _reach(p: Parser, i: int, classes: tuple[str, ...], asking: bool) -> Iterator[int]:
    """Every position reachable from i through these classes and separators ("?" and "吗" when asking),
    within _AROUND tokens: courtesy around a request is a few words, and a message of hundreds of "ok"
    is read in bounded time (it is then no request read whole)."""
    seen, todo = {i}, [i]
    while todo:
        pos = todo.pop()
        if pos - i > _AROUND:
            continue
        yield pos
        steps = list(p.w(pos, *classes, *(("closer.question",) if asking else ())))
        token = p.tokens[pos] if pos < p.n else None
        if token is not None and token.kind == "punct" and (token.text in _SEPARATORS or asking and token.text == "?"):
            steps.append(pos + 1)
        if not asking:
            # "…, please?" "…好吗？": a closer that asks may end in a question mark.
            steps += [end + 1 for end in p.w(pos, "closer.ask") if end < p.n and p.texts[end] == "?"]
        for step in steps:
            if step not in seen:
                seen.add(step)
                todo.append(step)


def _lead(p: Parser, i: int) -> Iterator[int]:
    return _reach(p, i, ("courtesy",), asking=False)


def _ends(p: Parser, i: int, asking: bool) -> bool:
    return p.n in set(_reach(p, i, ("courtesy", "closer.plain", "closer.ask"), asking)) and not _cut_off(p) \
        and not any(list(p.w(k, "laughter")) for k in range(i, p.n))


def _cut_off(p: Parser) -> bool:
    """Whether the message stops on a word that joins it to more ("mark task 5 done and", "…, so"): cut off."""
    words = [t.text for t in p.tokens if t.kind != "punct"]
    return bool(words) and words[-1] in _JOINS


def _requests(p: Parser) -> Iterator[Change]:
    for a in _lead(p, 0):
        frames = [(a, "none"), *((end, kind) for kind in FRAMES if kind != "passive"
                                 for end in p.w(a, f"frame.{kind}"))]
        for b, kind in frames:
            form = {"ing": "ing", "past": "past"}.get(kind, "base")
            for c in _lead(p, b):
                for d, found in change(p, c, form):
                    for end, read in [(d, found), *corrected(p, d, found)]:
                        if _ends(p, end, asking=kind in ("ask", "ing")) and not title_runs_on(p, end, read):
                            yield read
        for b in p.w(a, "frame.passive"):  # "can WEB-5 be marked as done, please?"
            for c, tg in target(p, b):
                for d in p.opt(c, "courtesy"):
                    for e in p.w(d, "glue.be"):
                        for end, found in en_passive(p, e, tg):
                            if _ends(p, end, asking=True):
                                yield found


def _declined(p: Parser) -> Iterator[tuple[Mood, Change]]:
    for a in _lead(p, 0):
        for mood, cls, form in (("negated", "not.negated", "base"), ("negated", "not.negated_ing", "ing"),
                                ("question", "not.question", "base")):
            for b in p.w(a, cls):
                for c in _lead(p, b):
                    for end, found in change(p, c, form):
                        if _ends(p, end, asking=True):
                            yield mood, found  # type: ignore[misc]
        for t, tg in target(p, a):  # "任务5别删", "任务5不用删除": the task, then the negation
            for b in p.w(t, "not.negated"):
                for end, found in zh_after_task(p, b, tg):
                    if _ends(p, end, asking=True):
                        yield "negated", found
        for _, found in _retracted(p, a):
            yield "negated", found


def _retracted(p: Parser, a: int) -> Iterator[tuple[int, Change]]:
    """A request taken back at once ("delete task 5, just kidding", "把任务5删了，开玩笑的"): nothing is asked."""
    for b in p.opt(a, *(f"frame.{kind}" for kind in FRAMES if kind != "passive")):
        for end, found in change(p, b, "base"):
            for c in _reach(p, end, ("courtesy",), asking=False):
                marked = any(t.kind == "punct" for t in p.tokens[end:c])
                for d in p.w(c, "not.kidding", *(("not.retracted",) if marked else ())):
                    if _ends(p, d, asking=False):
                        yield d, found


def _named(p: Parser) -> Change | None:
    """A change anywhere in the message, in any form; None when none is, or when it names two tasks.

    Two tasks name one change when a correction stands between the change and the second ("mark
    task 5 done, no wait, task 6"): the change is then the second task's. A change on "it" in a
    message that names one task is that task's ("task 5 shipped, mark it done").
    """
    refs = [(i, t) for i, t in enumerate(p.tokens) if t.kind == "ref"]
    tasks = {t.value for _, t in refs}
    # A pronoun stands for the one person named elsewhere: only in a change offered, never in one read whole.
    p.antecedent = antecedent(p)
    for i in range(p.n):
        found = [(end, c) for form in ("base", "ing", "past", "pp") for end, c in change(p, i, form)]
        if not found:
            continue
        clause = next((k + 1 for k in range(i - 1, -1, -1) if p.tokens[k].kind == "punct"), 0)
        if any(list(p.w(k, "not.negated", "not.negated_ing")) for k in range(clause, i)):
            continue  # "don't make it P0, make it P1", "不要把任务5删了，…": the change denied is none to offer
        end, named = max(found, key=lambda item: item[0])  # the longest: a title up to where a clause starts
        if len(tasks) == 1 and named.target.scope == "selected":
            return replace(named, target=Target(task_id=int(refs[0][1].value)))
        if len(tasks) == 1 or not tasks:
            return named
        return _corrected_to_last(p, end, named, refs)
    return None


def _verbless(p: Parser) -> Change | None:
    """A message that is only a task and a value, with courtesy ("WEB-5 → done pls"), not a question."""
    for a in _lead(p, 0):
        for end, found in verbless(p, a):
            if _ends(p, end, asking=False):
                return found
    return None


def _corrected_to_last(p: Parser, end: int, named: Change, refs: list[tuple[int, Token]]) -> Change | None:
    """The change on the last task named, when a correction leads right to it and nothing but courtesy
    follows ("mark task 5 done, no wait, task 6", "…，不对，是任务6"); else None (the reader asks).
    "delete task 5, actually keep task 6" is no correction."""
    last_at, last = refs[-1]
    if named.target.task_id is None or last_at < end or int(last.value) == named.target.task_id:
        return None
    if any(end <= i < last_at for i, _ in refs) or not _ends(p, last_at + 1, asking=False):
        return None
    leads = {e for i in range(end, last_at) for e in p.w(i, "correction_mark", "correction")}
    if not any(all(p.tokens[k].kind == "punct" or p.texts[k] in RESTATED for k in range(e, last_at))
               for e in leads):
        return None
    return replace(named, target=Target(task_id=int(last.value)), taken_back=named.target.task_id)


def read_write(message: str) -> WriteReading | None:
    """The change the message names and whether it asks for it; None when it names none (or two tasks)."""
    return _read_write(Parser(one_line(message), tokenize(message)))


def _asks_nothing(p: Parser) -> bool:
    """A question put to no one ("who deleted task 5?", "what's blocking task 5", "任务5的负责人是谁"): a
    question's word or mark, and no word that asks the assistant for something ("could you", "please",
    "能不能", "帮我")."""
    opens = any(list(p.w(a, "question.opens")) for a in _lead(p, 0))
    if not opens and not any(list(p.w(i, "question.marks")) for i in range(p.n)):
        return False
    return not asks_assistant(p)


def _read_write(p: Parser, *, repairs: bool = True) -> WriteReading | None:
    for found in _requests(p):
        if found.target.anyone:  # "delete a task": no task is asked for
            return None
        return WriteReading(found, "request")
    for mood, found in _declined(p):
        return WriteReading(found, mood)
    if _asks_nothing(p):
        return None  # a question about a change (who made it, whether it is made) is answered
    if any(t.text in _EXCEPT for t in p.tokens) or "除了" in p.text:
        return None  # "close all tasks except this one", "除了这个任务，其他都标记完成": which tasks is asked
    named = _named(p) or _verbless(p)
    if named is not None and named.taken_back is None and retakes_value(p):
        return None  # "assign it to bob, no, carol": which value is meant is asked, no card states the first
    if named is not None:
        return WriteReading(named, "unread") if not named.target.anyone else None
    better = repaired(p.text) if repairs else None
    # Read through corrected words: never whole, so a request is offered on a card.
    reading = _read_write(Parser(better, tokenize(better)), repairs=False) if better is not None else None
    if reading is not None:
        return reading if reading.mood != "request" else WriteReading(reading.change, "unread")
    # No rule reads a change: its parts, wherever they stand, may still name one (offered on a card).
    pieced = gathered(p)
    return WriteReading(pieced, "unread") if pieced is not None else None



@dataclass(frozen=True)
class Reading:
    """What the message asks for, as router slots, and how much of it was read."""

    capability: str
    slots: dict[str, Any]
    # For a change: "request" only when read whole; None when the message names no change.
    mood: Mood | None = None
    change: Change | None = None
    # Filters a query read but cannot use, as written ("assigned to carol"), or words clarify could not read.
    unusable: tuple[str, ...] = ()

    @property
    def asks_write(self) -> bool:
        return self.mood == "request"


_WEEK = re.compile(r"\b(\d{4}-W\d{2})\b", re.IGNORECASE)


def _week(text: str) -> str | None:
    iso = _WEEK.search(text)
    if iso:
        return iso.group(1).upper()
    lowered = text.lower()
    if any(w in lowered for w in ("this week", "本周", "这周", "这一周")):
        return "this"
    return "last" if any(w in lowered for w in ("last week", "上周", "上一周")) else None


def change_slots(found: Change) -> tuple[str, dict[str, Any]]:
    """The capability and router slots of a change."""
    tg = found.target
    where = {"task_id": tg.task_id, "scope": tg.scope or ("selected" if tg.task_id is None else None)}
    if found.operation == "decompose":
        return "decompose", {**where, "scope": "selected"}
    if found.operation == "create":
        return "crud", {"operation": "create", "title": found.title, **dict(found.values)}
    if found.operation in ("update", "delete"):
        return "crud", {"operation": found.operation, **where, **dict(found.values)}
    if found.operation == "assign":
        return "crud", {"operation": "assign", **where, "assignee": found.assignee}
    if found.operation == "rename":
        return "crud", {"operation": "rename", **where, "title": found.title}
    assert found.operation == "unassign", found.operation
    # "take carol off task 5" names whom: the task's assignee must be carol (crud checks), or nothing changes.
    return "crud", {"operation": "unassign", **where, "assignee": found.assignee}


def read(message: str) -> Reading:
    """Read the message: the change it names and whether it asks for it, else what it asks to see.

    A run reads its message several times (the router, the intent check, the capability): each gets its
    own copy of one reading per message and day."""
    return copy.deepcopy(_read(message, timezone.localdate()))


@lru_cache(maxsize=256)
def _read(message: str, today: date) -> Reading:  # today: dates in words are read from it
    p = Parser(one_line(message), tokenize(message))
    write = _read_write(p)
    if write is not None:
        capability, slots = change_slots(write.change)
        return Reading(capability, slots, write.mood, write.change)
    capability, slots, unusable = read_capability(p)
    if capability in ("weekly_report", "risk"):
        # A project the message names ("in Website Redesign"), read as a query reads it.
        named = read_query(p).slots.get("project_name")
        slots = {**slots, **({"project_name": named} if named else {})}
        if capability == "weekly_report":
            slots["week"] = _week(p.text)
    return Reading(capability, slots, None, None, unusable)
