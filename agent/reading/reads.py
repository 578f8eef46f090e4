"""Read a message that asks to see something: a capability named by its phrases, or a query and its filters.

A capability that only reads names its subject ("weekly report", "at risk"); help's greetings count
only as the whole message. Otherwise the message is read as a query, token by token: each token
is a filter (status, priority in letters or words, "overdue", "mine", a person, nobody, a due range, a
project), a word
of asking ("show", "which", "有哪些"), a task noun, courtesy, or unread. A person is kept as written
("carol"): the query node finds them among the members of the user's projects, or asks. A filter
the query cannot combine (a second person, a second range) is kept as words to name in the answer
("I couldn't use …"). A word the reader does not know at all makes no query: the message is
unclear, and clarify says so.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from agent.registry import CAPABILITIES, PHRASES
from pm_assistant.vocabulary import OPEN_STATUSES

from .due import due_range
from .lexicon import STATUSES
from .parts import Parser, priority, status
from .query_words import DUE_RANGES

_ISO_WEEK = re.compile(r"^\d{4}-W\d{2}$", re.IGNORECASE)
# Words that begin another filter: a project's name ends before one ("in Mobile App due before Friday").
_FILTER_STARTS = ("range.due", "range.zh_due", "read.overdue", "read.assigned", "read.unassigned", "read.open",
                  "read.week", *(f"range.{name}" for name in DUE_RANGES), *(f"status.{s}" for s in STATUSES))
_NOT_A_NAME = ("read.mine", "read.known", "read.this_task", "read.here", "courtesy", "query.ask", "query.noun",
               "glue.zh_me", "read.owned_zh", "read.nobody_zh")
_WHOSE = ("assignee_me", "unassigned", "assignee")
_CLAUSE_STARTS = frozenset({"that", "which", "where", "whose"})  # "in Website Redesign that are blocked"
_OPEN = ("open", "unfinished", "not done", "incomplete", "outstanding", "pending", "remaining", "未完成", "没完成",
         "进行中的和待办的")


@dataclass
class ReadQuery:
    slots: dict[str, Any] = field(default_factory=dict)
    unusable: list[str] = field(default_factory=list)  # filters read but not usable, as written
    unknown: list[str] = field(default_factory=list)  # words not read at all, side by side ones as one phrase
    unknown_at: list[int] = field(default_factory=list)  # where each word not read stands
    status_words: list[tuple[str, str]] = field(default_factory=list)  # each status read, as written
    asked: bool = False  # a word of asking or a task noun was read


def _ends_here(p: Parser, end: int) -> bool:
    return all(t.kind == "punct" for t in p.tokens[end:])


def _topic(p: Parser) -> str | None:
    """The first capability (in the registry's order) whose phrases the message holds."""
    for spec in CAPABILITIES:
        if spec.name in PHRASES and list(p.lex.match(p.texts, 0, f"{spec.name}.greeting")):
            if any(_ends_here(p, end) for end in p.lex.match(p.texts, 0, f"{spec.name}.greeting")):
                return spec.name
    for spec in CAPABILITIES:
        if spec.name in PHRASES and any(p.lex.match(p.texts, i, f"{spec.name}.topic") for i in range(p.n)):
            return spec.name
    # "carol's tasks": a person's possessive before what a capability declares it shows of a person, ending
    # the message; with more after it ("carol's tasks due Friday") it is a query, which reads the rest.
    for spec in CAPABILITIES:
        if spec.name in PHRASES and any(token.kind == "word" and token.text.endswith("'s")
                                        and any(_ends_here(p, end) for end in
                                                p.lex.match(p.texts, i + 1, f"{spec.name}.possessed"))
                                        for i, token in enumerate(p.tokens)):
            return spec.name
    return None


def _capitalised(p: Parser, i: int) -> bool:
    return i < p.n and p.tokens[i].kind == "word" and p.raw(i, i + 1)[:1].isupper()


def _ends_name(p: Parser, start: int, i: int) -> bool:
    """Whether a project's name that began at `start` ends before the token at i.

    A capitalised word never ends it ("Customer Assigned Leads"). A lower-case word that begins another
    filter or a clause does ("in Mobile App due before Friday", "in Website Redesign that are blocked").
    A name begun with a capital ends at a lower-case word no capitalised one follows ("in Support Portal
    are waiting", but "Bill of Materials") and at Chinese ("在 Customer Portal 的逾期任务")."""
    if _capitalised(p, i):
        return False
    if p.texts[i] in _CLAUSE_STARTS or list(p.w(i, *_FILTER_STARTS)):
        return True
    if not _capitalised(p, start):
        return False
    return p.tokens[i].kind == "han" or p.tokens[i].kind == "word" and not _capitalised(p, i + 1)


def project_named(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """"in Website Redesign", "for project Apollo", "在 Website Redesign 项目里": the words up to a mark."""
    for j in p.w(i, "read.in"):
        for k in p.opt(j, "read.project"):
            quote = p.kind(k, "quote")
            if quote:
                yield next(p.w(k + 1, "read.project"), k + 1), quote.value
                continue
            end = k
            while end < p.n and (p.tokens[end].kind in ("word", "num", "han") or p.texts[end] == "-" and end > k) \
                    and not list(p.w(end, "read.project", "courtesy")) and not (end > k and _ends_name(p, k, end)):
                end += 1
            while end > k and p.texts[end - 1] == "-":  # "in Apollo - blocked": the dash is no part of it
                end -= 1
            # "in progress", "for last week", "in this project" are not names.
            if end > k and not list(p.w(k, "read.week", "read.here", "read.mine", "glue.me",
                                        *(f"status.{s}" for s in STATUSES))) \
                    and not _ISO_WEEK.match(p.raw(k, end)):
                yield next(p.w(end, "read.project"), end), p.raw(k, end)
    # "Website Redesign 有哪些逾期任务？": two or more capitalised words leading a Chinese question.
    end = i
    while i == 0 and end < p.n and p.tokens[end].kind == "word" and p.raw(end, end + 1)[:1].isupper():
        end += 1
    if end - i >= 2 and end < p.n and p.tokens[end].kind == "han":
        yield next(p.w(end, "read.project"), end), p.raw(i, end)


def _step(p: Parser, i: int, q: ReadQuery) -> int:
    """Read one filter or word at i into q; where reading goes on."""
    token = p.tokens[i]
    if token.kind == "ref":
        if q.slots.get("task_id") not in (None, int(token.value)):
            q.unusable.append(p.raw(i, i + 1))  # a second task: named, not combined
        else:
            q.slots.update(task_id=int(token.value), scope="selected")
        return i + 1
    for end, name in _owner_zh(p, i):  # "carol负责的", "小王手上的", "carol的任务"; before a priority ("高明负责的")
        _assignee(q, name, p.raw(i, end))
        return end
    for end, values in priority(p, i):  # "P0", "P0 priority", "high priority", "最高优先级"
        q.slots.setdefault("priority_filter", []).append(values[0][1])
        return end
    for end, (first, last) in due_range(p, i):
        if "due_after" in q.slots or "due_before" in q.slots:
            q.unusable.append(p.raw(i, end))  # a second range: named, not combined
        else:
            q.slots.update(due_after=first and first.isoformat(), due_before=last and last.isoformat())
        return end
    for end in p.w(i, "read.overdue"):
        q.slots.update(preset="overdue")
        return end
    for end in p.w(i, "read.open"):
        q.slots.setdefault("status_filter", []).extend(s for s in STATUSES if s != "done")
        return end
    for end, values in status(p, i):
        q.slots.setdefault("status_filter", []).append(values[0][1])
        q.status_words.append((values[0][1], p.raw(i, end)))
        return end
    for end in p.w(i, "read.this_task"):
        q.slots.update(scope="selected")
        return end
    for end in p.w(i, "read.here"):
        _project(q, None, p.raw(i, end))
        return end
    if p.texts[i] == "for" and _lone_name(p, i + 1):  # "anything overdue for alice?": a person, not a project
        _assignee(q, p.raw(i + 1, i + 2), p.raw(i, i + 2))
        return i + 2
    for end, name in project_named(p, i):
        _project(q, name, p.raw(i, end))
        return end
    for end in p.w(i, "read.unassigned"):
        _whose(q, "unassigned", True, p.raw(i, end))
        return end
    for end in p.w(i, "read.mine"):
        _whose(q, "assignee_me", True, p.raw(i, end))
        return end
    for j in p.w(i, "read.assigned"):
        for end in p.w(j, "glue.me", "glue.zh_me"):
            _whose(q, "assignee_me", True, p.raw(i, end))
            return next(p.w(end, "glue.de"), end)
        for end, name in _person(p, j):
            _assignee(q, name, p.raw(i, end))
            return next(p.w(end, "glue.de"), end)
    if i == 0 and token.kind == "word" and p.raw(0, 1)[:1].isupper() and p.kind(1, "han"):
        _assignee(q, p.raw(0, 1), p.raw(0, 1))  # "Alice 有哪些任务": Alice's tasks
        return 1
    for end in p.w(i, "query.ask", "query.noun"):
        q.asked = True
        return end
    for end in p.w(i, "read.week"):
        q.unusable.append(p.raw(i, end))  # a week no due range took ("closed last week"): named, not dropped
        return end
    for end in p.w(i, "read.known", "courtesy"):
        return end
    if token.kind == "word" and token.text.endswith("'s"):
        if token.text[:-2] in p.lex.known:  # "that's", "it's": a word of the grammar, no one's name
            return i + 1
        _assignee(q, p.raw(i, i + 1)[:-2], p.raw(i, i + 1))  # "carol's open tasks"
        return i + 1
    if token.kind == "punct":
        return i + 1
    q.unknown_at.append(i)
    return i + 1


def _lone_name(p: Parser, i: int) -> bool:
    """A single lower-case word no word of the grammar's, ending the question ("… for alice?")."""
    return (p.kind(i, "word") is not None and not _capitalised(p, i) and p.texts[i] not in p.lex.known
            and all(t.kind == "punct" for t in p.tokens[i + 1:]))


def _person(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """A person's name after "assigned to": one word ("carol"), or Chinese characters up to 的 ("小王")."""
    if p.kind(i, "word") and not list(p.w(i, "read.known", "courtesy", "query.noun")):
        yield i + 1, p.raw(i, i + 1)
        return
    end = i
    while end < p.n and end - i < 4 and p.kind(end, "han") and not list(p.w(end, "glue.de")):
        end += 1
    if end > i and list(p.w(end, "glue.de")):
        yield end, p.raw(i, end)


def _owner_zh(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """A person before "负责的" / "手上的" (a word, or up to four Chinese characters), or a word before "的任务"."""
    if p.kind(i, "word") and p.texts[i] not in p.lex.known:  # "blocked 的任务" names a status, no one
        for end in p.w(i + 1, "read.owned_zh", "read.tasks_of_zh"):
            yield end, p.raw(i, i + 1)
        return
    for end in range(i + 1, min(p.n, i + 4) + 1):  # a name holds no word of the lexicon's ("任务是我负责的")
        if not p.kind(end - 1, "han") or list(p.w(end - 1, *_NOT_A_NAME)):
            return
        for after in p.w(end, "read.owned_zh"):
            yield after, p.raw(i, end)


def _assignee(q: ReadQuery, name: str, written: str) -> None:
    """A person whose tasks the question lists; a second one is named as unused, never combined."""
    _whose(q, "assignee", name, written)


def _whose(q: ReadQuery, slot: str, value: Any, written: str) -> None:
    """Whose tasks: me, nobody, or a person, one of them; another is named as not used ("my tasks assigned
    to carol" lists mine and says it could not use "assigned to carol")."""
    taken = {k: q.slots[k] for k in _WHOSE if q.slots.get(k)}
    if taken and taken != {slot: value}:
        q.unusable.append(written)
    else:
        q.slots[slot] = value


def _project(q: ReadQuery, name: str | None, written: str) -> None:
    """The project named, or this one ("here", name None); a second is named as not used."""
    here = q.slots.get("scope") == "project"
    if here and name is not None or q.slots.get("project_name") not in (None, name):
        q.unusable.append(written)
    elif name is None:
        q.slots.update(scope="project")
    else:
        q.slots.update(project_name=name)


def read_query(p: Parser) -> ReadQuery:
    q, i = ReadQuery(), 0
    while i < p.n:
        i = _step(p, i, q)
    if q.slots.get("preset") == "overdue":  # an overdue task is open: "overdue done tasks" names "done" unused
        for name, written in q.status_words:
            if name not in OPEN_STATUSES:
                q.slots["status_filter"].remove(name)
                q.unusable.append(written)
    starts = [at for n, at in enumerate(q.unknown_at) if n == 0 or q.unknown_at[n - 1] != at - 1]
    ends = [at + 1 for n, at in enumerate(q.unknown_at) if n + 1 == len(q.unknown_at) or q.unknown_at[n + 1] != at + 1]
    q.unknown = [p.raw(a, b) for a, b in zip(starts, ends, strict=True)]  # "Mobile App", "小王手上": one phrase
    return q


def read_capability(p: Parser) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The capability a message that names no change asks for, its slots, and the words it could not use."""
    topic = _topic(p)
    if topic is not None:
        return topic, dict(PHRASES[topic].slots), ()
    q = read_query(p)
    filters = {k for k in q.slots if k != "task_id"} | ({"assignee"} if q.unusable else set())
    if q.unknown or not (q.asked or filters) or not (filters or q.slots.get("task_id")) and not q.asked:
        return "clarify", {}, tuple(q.unknown)
    if q.slots.get("preset") == "overdue" and q.slots.get("assignee_me"):
        q.slots["preset"] = "my_overdue"
    return "query", q.slots, tuple(q.unusable)
