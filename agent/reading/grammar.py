"""The grammar of a change to a task, English and Chinese: recursive descent over tokens, every parse tried.

Each rule is a generator: given where to start, it yields every (end, value) it can read there, so
a caller backtracks by reading on from each; a message is read whole only if some sequence of
rules ends exactly at its last token. The words come from the lexicon (lexicon.py), the verbs of
each write from its capability's phrases.py. English rules take the verb in the form their frame
needs ("mark", "marking", "marked"); Chinese ones put the task before the verb with 把 or
without it ("把任务5标记为完成", "任务5标记为完成"), or after it ("删除任务5").
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .dates import read_date
from .lexicon import FIELDS, STATUSES, lexicon
from .tokens import Token

Values = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Target:
    task_id: int | None = None
    scope: str | None = None  # "selected" (the task on the page) or "visible" (the rows shown)
    possessive: bool = False


@dataclass(frozen=True)
class Change:
    """A write the grammar read: its operation on its target with its values."""

    operation: str  # update, delete, create, decompose, assign, unassign, rename
    target: Target = Target()
    values: Values = ()
    title: str | None = None
    assignee: str | None = None


class Parser:
    def __init__(self, text: str, tokens: tuple[Token, ...]) -> None:
        self.text, self.tokens, self.n = text, tokens, len(tokens)
        self.texts = tuple(t.text for t in tokens)
        self.lex = lexicon()

    def w(self, i: int, *classes: str) -> Iterator[int]:
        """The ends of the phrases of these classes that start at i, the longest first."""
        for name in classes:
            yield from self.lex.match(self.texts, i, name)

    def opt(self, i: int, *classes: str) -> Iterator[int]:
        yield from self.w(i, *classes)
        yield i

    def kind(self, i: int, kind: str) -> Token | None:
        return self.tokens[i] if i < self.n and self.tokens[i].kind == kind else None

    def raw(self, i: int, j: int) -> str:
        return self.text[self.tokens[i].start:self.tokens[j - 1].end].strip()


# Values: a status, a priority, a due date.
def status(p: Parser, i: int) -> Iterator[tuple[int, Values]]:
    for name in STATUSES:
        for end in p.w(i, f"status.{name}"):
            yield end, (("status", name),)


def priority(p: Parser, i: int) -> Iterator[tuple[int, Values]]:
    token = p.kind(i, "prio")
    if token:
        yield i + 1, (("priority", token.value),)
        for end in p.w(i + 1, "field.priority"):  # "P0 priority"
            yield end, (("priority", token.value),)


def due(p: Parser, i: int) -> Iterator[tuple[int, Values]]:
    token = p.kind(i, "date")
    if token:
        yield i + 1, (("due_date", token.value),)
        return
    for end in range(min(p.n, i + 5), i, -1):  # the longest span of words dateparser reads
        if all(t.kind in ("word", "han", "num") for t in p.tokens[i:end]):
            day = read_date(p.raw(i, end))
            if day is not None:
                yield end, (("due_date", day.isoformat()),)


def value(p: Parser, i: int, field: str | None = None) -> Iterator[tuple[int, Values]]:
    rules = {"status": status, "priority": priority, "due_date": due}
    for name, rule in rules.items():
        if field in (None, name):
            yield from rule(p, i)


def values(p: Parser, i: int, field: str | None = None) -> Iterator[tuple[int, Values]]:
    """One value, or two of different fields, joined or side by side."""
    for end, first in value(p, i, field):
        yield end, first
        for j in p.opt(end, "glue.with"):  # "due 2026-12-15 P1", "to P0 and due Friday"
            for k in p.opt(j, "glue.due", "field.priority", "field.status"):
                for last, second in value(p, k):
                    if second[0][0] != first[0][0]:
                        yield last, first + second


def field_name(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    for name in FIELDS:
        for end in p.w(i, f"field.{name}"):
            yield end, name


def target(p: Parser, i: int) -> Iterator[tuple[int, Target]]:
    for j in p.opt(i, "glue.task", "glue.zh_task"):  # "task WEB-5", "任务 WEB-5"
        token = p.kind(j, "ref")
        if token:
            yield j + 1, Target(task_id=int(token.value), possessive=token.possessive)
    for scope in ("selected", "visible"):
        for end in p.w(i, f"target.{scope}"):
            yield end, Target(scope=scope)


def person(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    for end in p.w(i, "glue.me", "glue.zh_me"):
        yield end, "me"
    token = p.kind(i, "word")
    if token and not list(p.w(i, "glue.the", "glue.a", "courtesy")):
        yield i + 1, p.raw(i, i + 1)


def title(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """A new task's title: quoted, else the words up to what follows it, the shortest first.

    An unquoted title holds no mark and no clause after its first word ("… called X if the client
    agrees" leaves "if the client agrees" unread): quoted, a title may hold anything.
    """
    token = p.kind(i, "quote")
    if token:
        yield i + 1, token.value
        return
    for end in range(i + 1, p.n + 1):
        if p.tokens[end - 1].kind in ("punct", "sym") or end - 1 > i and list(p.w(end - 1, "clause")):
            break
        yield end, p.raw(i, end)


# English: a change in the verb form its frame needs (base, ing, past, pp).
def en_update(p: Parser, i: int, form: str) -> Iterator[tuple[int, Change]]:
    for v in p.w(i, f"crud.mark.{form}", f"crud.set.{form}"):
        for j, tg in target(p, v):
            for k, field in [*field_name(p, j), (j, None)]:  # "task 5 priority", "WEB-5's due date"
                for m in p.opt(k, "glue.to"):
                    for end, vals in values(p, m, field):
                        yield end, Change("update", tg, vals)
        for j in p.opt(v, "glue.the"):  # "set the priority of task 5 to P0"
            for k, field in field_name(p, j):
                for m in p.w(k, "glue.of"):
                    for n, tg in target(p, m):
                        for o in p.opt(n, "glue.to"):
                            for end, vals in values(p, o, field):
                                yield end, Change("update", tg, vals)
        for j in p.opt(v, "glue.the"):  # "set priority to P0": the selected task's
            for k, field in field_name(p, j):
                for m in p.w(k, "glue.to"):
                    for end, vals in values(p, m, field):
                        yield end, Change("update", Target(scope="selected"), vals)
    for v in p.w(i, f"crud.close.{form}"):
        for end, tg in target(p, v):
            yield end, Change("update", tg, (("status", "done"),))


def en_change(p: Parser, i: int, form: str) -> Iterator[tuple[int, Change]]:
    yield from en_update(p, i, form)
    for v in p.w(i, f"crud.delete.{form}"):
        for end, tg in target(p, v):
            yield end, Change("delete", tg)
    for v in p.w(i, f"decompose.verb.{form}"):
        # A breakdown with no task named is of the selected one ("can you give me a breakdown?").
        for j, tg in [*target(p, v), (v, Target(scope="selected"))]:
            for end in p.opt(j, "decompose.after"):
                yield end, Change("decompose", tg)
    for v in p.w(i, f"crud.assign.{form}"):
        for j, tg in target(p, v):
            for k in p.w(j, "glue.assignee_to"):
                for end, who in person(p, k):
                    yield end, Change("assign", tg, assignee=who)
    for v in p.w(i, f"crud.unassign.{form}"):
        for end, tg in target(p, v):
            yield end, Change("unassign", tg)
    for v in p.w(i, f"crud.rename.{form}"):
        for j, tg in target(p, v):
            for k in p.opt(j, "glue.rename_to"):
                for end, name in title(p, k):
                    yield end, Change("rename", tg, title=name)
    for v in p.w(i, f"crud.create.{form}"):
        for j in p.opt(v, "glue.a"):
            for k in p.w(j, "glue.task"):
                for m in p.opt(k, "glue.called"):
                    yield from create_fields(p, m)
        if p.kind(v, "quote"):  # "add 'Release notes'"
            yield from create_fields(p, v)


def create_fields(p: Parser, i: int) -> Iterator[tuple[int, Change]]:
    for j, name in title(p, i):
        yield j, Change("create", title=name)
        for k in p.opt(j, "glue.with"):
            for m in p.opt(k, "glue.due", "field.priority"):
                for end, vals in values(p, m):
                    if vals[0][0] != "status":
                        yield end, Change("create", values=vals, title=name)


def en_passive(p: Parser, i: int, tg: Target) -> Iterator[tuple[int, Change]]:
    """What follows "can task 5 be …": "marked as done", "set to P0", "deleted", "broken down"."""
    for v in p.w(i, "crud.mark.pp", "crud.set.pp"):
        for m in p.opt(v, "glue.to"):
            for end, vals in values(p, m):
                yield end, Change("update", tg, vals)
    for v in p.w(i, "crud.close.pp"):
        yield v, Change("update", tg, (("status", "done"),))
    for v in p.w(i, "crud.delete.pp"):
        yield v, Change("delete", tg)
    for v in p.w(i, "decompose.verb.pp"):
        for end in p.opt(v, "decompose.after"):
            yield end, Change("decompose", tg)


# Chinese: the task first (with 把 or without), or the verb first.
def zh_change(p: Parser, i: int) -> Iterator[tuple[int, Change]]:
    for b in p.opt(i, "glue.ba"):
        for j, tg in target(p, b):
            fields = [(j, None)] + [(e, f) for d in p.opt(j, "glue.de") for e, f in field_name(p, d)]
            for k, field in fields:
                for m in p.w(k, "crud.mark.base"):
                    for end, vals in values(p, m, field):
                        yield end, Change("update", tg, vals)
                    if field == "title":
                        for end, name in title(p, m):
                            yield end, Change("rename", tg, title=name)
            for m in p.w(j, "crud.delete.base"):
                yield m, Change("delete", tg)
            for m in p.w(j, "decompose.verb.base"):
                for end in p.opt(m, "decompose.after"):
                    yield end, Change("decompose", tg)
            for m in p.w(j, "crud.assign.base"):
                for end, who in person(p, m):
                    yield end, Change("assign", tg, assignee=who)
            for m in p.w(j, "crud.unassign.base"):
                yield m, Change("unassign", tg)
            for m in p.w(j, "crud.rename.base"):
                for end, name in title(p, m):
                    yield end, Change("rename", tg, title=name)
            if b != i:
                for m in p.w(j, "crud.close.base"):
                    yield m, Change("update", tg, (("status", "done"),))
    for v in p.w(i, "crud.delete.base"):
        for j, tg in target(p, v):
            yield j, Change("delete", tg)
    for v in p.w(i, "crud.close.base"):
        for j, tg in target(p, v):
            yield j, Change("update", tg, (("status", "done"),))
    for v in p.w(i, "decompose.verb.base"):
        for j, tg in target(p, v):
            for end in p.opt(j, "decompose.after"):
                yield end, Change("decompose", tg)
    for v in p.w(i, "crud.create.base"):
        for j in p.opt(v, "glue.yige"):
            for k in p.w(j, "glue.zh_task"):
                for m in p.opt(k, "glue.zh_called"):
                    yield from create_fields(p, m)


def change(p: Parser, i: int, form: str = "base") -> Iterator[tuple[int, Change]]:
    """Every change that starts at i, in either language."""
    yield from en_change(p, i, form)
    if form == "base":
        yield from zh_change(p, i)


def corrected(p: Parser, i: int, first: Change) -> Iterator[tuple[int, Change]]:
    """"…, sorry I meant task 6": the same change on the task named last."""
    for j in p.opt(i, "glue.with"):
        for k in p.w(j, "correction"):
            for end, tg in target(p, k):
                if first.target.task_id is not None or first.target.scope is not None:
                    yield end, replace(first, target=tg)
