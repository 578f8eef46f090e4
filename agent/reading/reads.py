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

from dataclasses import dataclass, field
from typing import Any

from agent.registry import CAPABILITIES, PHRASES
from pm_assistant.vocabulary import OPEN_STATUSES

from .due import due_range
from .lexicon import STATUSES
from .names import CONTRACTED, NOT_NAMES, lone_name, owner_zh, person, person_before, project_named
from .parts import Parser, priority, status
from .repair import repaired
from .tokens import tokenize

_WHOSE = ("assignee_me", "unassigned", "assignee")
# A request's frame or courtesy around a question ("could you show me …", "帮我查一下 …"): asks nothing more.
_ASIDE = ("read.known", "courtesy", "frame.plain", "frame.ask")
# What joins two lists of tasks: "blocked tasks and overdue tasks", "阻塞任务、逾期任务".
_JOINS_LISTS = frozenset({"and", "plus", ",", "和", "以及", "与", "、", "还有", "跟"})
# A possessive of no one ("that's", "nobody's", "tomorrow's"): no person's tasks.
_NO_ONES = CONTRACTED | NOT_NAMES


@dataclass
class ReadQuery:
    slots: dict[str, Any] = field(default_factory=dict)
    unusable: list[str] = field(default_factory=list)  # filters read but not usable, as written
    unknown: list[str] = field(default_factory=list)  # words not read at all, side by side ones as one phrase
    unknown_at: list[int] = field(default_factory=list)  # where each word not read stands
    status_words: list[tuple[str, str]] = field(default_factory=list)  # each status read, as written
    values: list[tuple[int, int, str]] = field(default_factory=list)  # where each status or priority stands
    ors: list[tuple[int, int]] = field(default_factory=list)  # where each "or" starts and ends
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
                                        and token.text[:-2] not in _NO_ONES
                                        and any(_ends_here(p, end) for end in
                                                p.lex.match(p.texts, i + 1, f"{spec.name}.possessed"))
                                        for i, token in enumerate(p.tokens)):
            return spec.name
    return None


def _step(p: Parser, i: int, q: ReadQuery) -> int:
    """Read one filter or word at i into q; where reading goes on."""
    token = p.tokens[i]
    if token.kind == "ref":
        if q.slots.get("task_id") not in (None, int(token.value)):
            q.unusable.append(p.raw(i, i + 1))  # a second task: named, not combined
        else:
            q.slots.update(task_id=int(token.value), scope="selected")
        return i + 1
    for end, name in owner_zh(p, i):  # "carol负责的", "小王手上的", "carol的任务"; before a priority ("高明负责的")
        _assignee(q, name, p.raw(i, end))
        return end
    for end, values in priority(p, i):  # "P0", "P0 priority", "high priority", "最高优先级"
        q.slots.setdefault("priority_filter", []).append(values[0][1])
        q.values.append((i, end, "priority"))
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
        q.values.append((i, end, "status"))
        return end
    for end, values in status(p, i):
        q.slots.setdefault("status_filter", []).append(values[0][1])
        q.status_words.append((values[0][1], p.raw(i, end)))
        q.values.append((i, end, "status"))
        return end
    for end in p.w(i, "read.this_task"):
        q.slots.update(scope="selected")
        return end
    for end in p.w(i, "read.here"):
        _project(q, None, p.raw(i, end))
        return end
    if p.texts[i] == "for" and lone_name(p, i + 1):  # "anything overdue for alice?": a person, not a project
        _assignee(q, p.raw(i + 1, i + 2), p.raw(i, i + 2))
        return i + 2
    for end in p.w(i, "read.everywhere"):  # "across all my projects": every project, as a query reads anyway
        return end
    for end, name in project_named(p, i):
        _project(q, name, p.raw(i, end))
        return end
    for end in p.w(i, "read.unassigned"):
        if p.texts[end:end + 1] == ("to",):  # "not assigned to me" is not "unassigned": named, not read
            q.unusable.append(p.raw(i, min(p.n, end + 2)))
            return min(p.n, end + 2)
        _whose(q, "unassigned", True, p.raw(i, end))
        return end
    for end in p.w(i, "read.mine"):
        if list(p.w(end, "read.assigned")):  # "我分配给bob的任务": what I assigned to bob, not mine
            q.unknown_at.append(i)
            return end
        _whose(q, "assignee_me", True, p.raw(i, end))
        return end
    for j in p.w(i, "read.assigned"):
        for end in p.w(j, "glue.me", "glue.zh_me"):
            _whose(q, "assignee_me", True, p.raw(i, end))
            return next(p.w(end, "glue.de"), end)
        for end, name in person(p, j):
            _assignee(q, name, p.raw(i, end))
            return next(p.w(end, "glue.de"), end)
    if (who := person_before(p, i)) is not None:  # "Alice 有哪些任务", "what does dave have", "carol P0"
        _assignee(q, who, who)
        return i + 1
    if p.texts[i] == "i" and (list(status(p, i + 1)) or p.texts[i + 1:i + 3] == ("need", "to")):
        # "tasks I finished": who closed a task is no filter a query has (its assignee may be another): named
        q.unusable.append(p.raw(i, max((e for e, _ in status(p, i + 1)), default=i + 3)))
        return i + 1
    for end in p.w(i, "read.or"):  # "blocked or in progress": checked once all is read (read_query)
        q.ors.append((i, end))
        return end
    for end in p.w(i, "query.ask", "query.noun"):
        q.asked = True
        return end
    for end in p.w(i, "read.week"):
        q.unusable.append(p.raw(i, end))  # a week no due range took ("closed last week"): named, not dropped
        return end
    for end in p.w(i, *_ASIDE):
        return end
    if token.kind == "word" and token.text.endswith("'s"):
        if token.text[:-2] in CONTRACTED:  # "that's", "it's": a contraction, no one's name ("Will's" is one)
            return i + 1
        if token.text[:-2] in NOT_NAMES:  # "tomorrow's tasks", "the team's": no one person, so not read
            q.unknown_at.append(i)
            return i + 1
        _assignee(q, p.raw(i, i + 1)[:-2], p.raw(i, i + 1))  # "carol's open tasks"
        return i + 1
    if token.kind == "punct":
        return i + 1
    q.unknown_at.append(i)
    return i + 1


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


def _second_list(p: Parser) -> int | None:
    """Where a second list starts: a joining word after one task noun and before another ("blocked tasks and
    overdue tasks", "bob的P0任务和carol的P1任务"); a query lists one set of tasks, so the second is named."""
    nouns = [i for i in range(p.n) if list(p.w(i, "query.noun"))]
    if len(nouns) < 2:
        return None
    return next((i for i in range(nouns[0] + 1, nouns[-1]) if p.texts[i] in _JOINS_LISTS), None)


def read_query(p: Parser) -> ReadQuery:
    second = _second_list(p)
    if second is not None:  # the first list is read alone; the second is named as written
        q = read_query(Parser(p.text, p.tokens[:second]))
        q.unusable.append(p.raw(second + 1, p.n))
        return q
    q, i = ReadQuery(), 0
    while i < p.n:
        i = _step(p, i, q)
    if q.slots.get("preset") == "overdue":  # an overdue task is open: "overdue done tasks" names "done" unused
        if set(q.slots.get("status_filter", ())) == set(OPEN_STATUSES):  # "overdue and not done": overdue says it
            del q.slots["status_filter"]
        for name, written in q.status_words:
            if name not in OPEN_STATUSES:
                q.slots["status_filter"].remove(name)
                q.unusable.append(written)
    for at, end in q.ors:  # "or" joins two values of one filter, both listed; between any others it is not read
        if not _joins_alike(q, at, end):
            q.unknown_at.extend(range(at, end))
    q.unknown_at.sort()
    starts = [at for n, at in enumerate(q.unknown_at) if n == 0 or q.unknown_at[n - 1] != at - 1]
    ends = [at + 1 for n, at in enumerate(q.unknown_at) if n + 1 == len(q.unknown_at) or q.unknown_at[n + 1] != at + 1]
    q.unknown = [p.raw(a, b) for a, b in zip(starts, ends, strict=True)]  # "Mobile App", "小王手上": one phrase
    return q


def _joins_alike(q: ReadQuery, at: int, end: int) -> bool:
    """Whether the "or" at `at`…`end` stands between two statuses or two priorities ("either" before the first)."""
    before = next((kind for _, stop, kind in q.values if stop == at), None)
    after = next(((stop, kind) for start, stop, kind in q.values if start == end), None)
    if after is not None and before is None:  # "either P0 or P1": the "or" after the next value decides
        following = next(((a, b) for a, b in q.ors if a == after[0]), None)
        return following is not None and _joins_alike(q, *following)
    return before is not None and after is not None and before == after[1]


def read_capability(p: Parser, *, repairs: bool = True) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The capability a message that names no change asks for, its slots, and the words it could not use.

    A question with a word the reader does not know is read again with its misspelt words put right
    ("overdeu tasks", "shwo me blokced tasks"), and kept only if that reading leaves no word unread: the
    answer states the filters it used, so a correction is never hidden."""
    capability, slots, unusable = _capability(p)
    better = repaired(p.text, names=True) if repairs and capability == "clarify" and unusable else None
    if better is not None:
        again = _capability(Parser(better, tokenize(better)))
        if again[0] != "clarify":
            return again
    return capability, slots, unusable


def _capability(p: Parser) -> tuple[str, dict[str, Any], tuple[str, ...]]:
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
