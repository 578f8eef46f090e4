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
from dataclasses import replace

from .parts import Change, Parser, Target, field_name, named_for, person, priority, status, target, title, values
from .people import en_people, zh_people


def field_set(p: Parser, i: int, tg: Target, field: str | None, *, led: bool = True) -> Iterator[tuple[int, Change]]:
    """What a task's field is set to at i: a value (an update), a new title (a rename) or a person (an assign).

    A new title is free text, so it is read only where a word leads to it (``led``: "to", "成"): "change
    the name of task 5 to X", never "switch the name of task 5 over to X" (titled "over to X")."""
    for end, vals in values(p, i, field):
        yield end, Change("update", tg, vals)
    if field == "title" and led:
        for end, name in title(p, i):
            yield end, Change("rename", tg, title=name)
    if field == "assignee":
        for end, who in person(p, i):
            yield end, Change("assign", tg, assignee=who)


# English: a change in the verb form its frame needs (base, ing, past, pp).
def en_update(p: Parser, i: int, form: str) -> Iterator[tuple[int, Change]]:
    for v in p.w(i, f"crud.mark.{form}", f"crud.set.{form}"):
        for j, tg in target(p, v):
            for k, field in [*field_name(p, j), (j, None)]:  # "task 5 priority", "WEB-5's due date"
                for m in p.opt(k, "glue.to"):
                    yield from field_set(p, m, tg, field, led=m > k)  # "change task 5's name to X"
                if field in (None, "priority"):
                    for m in p.w(k, "glue.up_to"):  # "bump task 5 up to P0"
                        for end, vals in priority(p, m):
                            yield end, Change("update", tg, vals)
        for j in p.opt(v, "glue.the"):  # "set the priority of task 5 to P0", "change the title of task 5 to X"
            for k, field in field_name(p, j):
                for m in p.w(k, "glue.of"):
                    for n, tg in target(p, m):
                        for o in p.opt(n, "glue.to"):
                            yield from field_set(p, o, tg, field, led=o > n)  # "set the assignee of task 5 to carol"
        for j in p.opt(v, "glue.to"):  # "mark as done task 5": the value before the task
            for k, vals in values(p, j):
                for end, tg in target(p, k):
                    yield end, Change("update", tg, vals)
        for j in p.opt(v, "glue.the"):  # "set priority to P0": the selected task's
            for k, field in field_name(p, j):
                for m in p.w(k, "glue.to"):
                    for end, vals in values(p, m, field):
                        yield end, Change("update", Target(scope="selected"), vals)
    for v in p.w(i, f"crud.close.{form}"):
        for end, tg in target(p, v):
            yield end, Change("update", tg, (("status", "done"),))
    for end, tg in p.around(i, f"crud.close.{form}", target(p, i + 1)):  # "wrap task 5 up"
        yield end, Change("update", tg, (("status", "done"),))
    for v in p.w(i, f"crud.block.{form}"):
        for end, tg in target(p, v):
            yield end, Change("update", tg, (("status", "blocked"),))


def _takes_out(p: Parser, end: int) -> bool:
    """Whether the task is taken out of something ("remove this task from the sprint"): that deletes nothing."""
    return "from" in p.texts[end:] or "从" in p.texts[:end]


def en_change(p: Parser, i: int, form: str) -> Iterator[tuple[int, Change]]:
    yield from en_update(p, i, form)
    yield from en_people(p, i, form)
    for v in p.w(i, f"crud.delete.{form}"):
        for end, tg in target(p, v):
            if not _owns_more(p, end, tg) and not _takes_out(p, end):
                yield end, Change("delete", tg)
    for v in p.w(i, f"decompose.verb.{form}"):
        # A breakdown with no task named is of the selected one ("can you give me a breakdown?", "break it
        # down"), never a verb alone ("the build broke").
        for j, tg in target(p, v):
            for end in p.opt(j, "decompose.after"):
                yield end, Change("decompose", tg)
        for end in [*p.w(v, "decompose.after"), *((v,) if v - i > 1 else ())]:
            yield end, Change("decompose", Target(scope="selected"))
    for v in p.w(i, f"crud.assign.{form}"):
        for j, tg in target(p, v):
            for k in p.w(j, "glue.assignee_to", "glue.zh_give"):  # "assign task 5 to carol", "assign 任务5 给 carol"
                for end, who in person(p, k):
                    yield end, Change("assign", tg, assignee=who)
    for j, tg in p.around(i, f"crud.assign.{form}", target(p, i + 1)):  # "hand WEB-5 over to carol"
        for k in p.w(j, "glue.assignee_to"):
            for end, who in person(p, k):
                yield end, Change("assign", tg, assignee=who)
    for v in p.w(i, f"crud.unassign.{form}"):
        for end, tg in target(p, v):
            yield end, Change("unassign", tg)
    for v in p.w(i, f"crud.rename.{form}"):
        for j, tg in target(p, v):
            for k in p.opt(j, "glue.rename_to"):
                # With no "to" before it, a title is quoted or starts as a name does ("call task 5 Launch plan"):
                # "call it a day", "call it done", "改名任务5暂缓" rename nothing.
                if k == j and not (p.kind(k, "quote") or k < p.n and (p.raw(k, k + 1)[:1].isupper()
                                                                        or p.tokens[k].kind == "num")):
                    continue
                for end, name in title(p, k):
                    yield end, Change("rename", tg, title=name)
    for v in p.w(i, f"crud.create.{form}"):
        for j in p.opt(v, "glue.a"):
            for k in p.w(j, "glue.task"):
                for m in p.opt(k, "glue.called"):
                    if m == k or p.texts[k] != "for" or named_for(p, m):
                        yield from create_fields(p, m)
        if p.kind(v, "quote"):  # "add 'Release notes'"
            yield from create_fields(p, v)
        for j in p.opt(v, "glue.a"):  # 'create a "Release notes" task': a quoted title before the noun
            if p.kind(j, "quote") and p.tokens[j].value:
                for end in p.w(j + 1, "glue.task"):
                    yield end, Change("create", title=p.tokens[j].value)
        for j, name in title(p, v):  # "add Release notes as a task"
            for end in p.w(j, "glue.as_task"):
                yield end, Change("create", title=name)


def create_fields(p: Parser, i: int) -> Iterator[tuple[int, Change]]:
    for j, name in title(p, i):
        yield j, Change("create", title=name)
        for k in p.opt(j, "glue.with"):
            for m in p.opt(k, "glue.due", "field.priority"):
                # A value right after an unquoted title may be its last word ("… called Black Friday").
                if m == j and not p.kind(j - 1, "quote"):
                    continue
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


def _own_field(p: Parser, j: int) -> list[tuple[int, str | None]]:
    """After a task: no field, or one of its fields ("任务5的优先级", "task 5 priority")."""
    return [(j, None)] + [(e, f) for d in p.opt(j, "glue.de") for e, f in field_name(p, d)]


def _adverbs(p: Parser, j: int) -> Iterator[int]:
    """Before a Chinese verb: nothing, or one or two adverbs ("任务5先标记为完成", "这个任务直接帮我删了")."""
    yield j
    for k in p.w(j, "glue.zh_adverb"):
        yield k
        yield from p.w(k, "glue.zh_adverb")


def _zh_task_first(p: Parser, j: int, tg: Target, *, ba: bool) -> Iterator[tuple[int, Change]]:
    """After the task (and its adverbs): one of its fields set, or a verb of its own."""
    for k0, field in _own_field(p, j):
        for k in _adverbs(p, k0) if field else (k0,):  # "任务5的名字给改成X"
            for m in p.w(k, "crud.mark.base"):
                if field == "title" and p.tokens[k].kind == "han" and m not in p.w(k, "crud.retitle.base"):
                    continue  # "任务5的标题标成红色", "…调整至20字以内" mark or trim the title, they give none
                # "把任务5的负责人改成carol"; "#5 的名字 change 成 X": an English verb, then 为/成
                for n in p.opt(m, "glue.rename_to") if field == "title" else (m,):
                    yield from field_set(p, n, tg, field)
            for m in p.w(k, "crud.set.base"):  # "把任务5 bump 到 P0", "这个 task 的 deadline push 到 Dec 31"
                for n in p.w(m, "glue.zh_to"):
                    yield from field_set(p, n, tg, field)
            if field in (None, "status"):
                for m in p.w(k, "crud.tag.base"):  # "任务5 标完成", "任务5标个阻塞": a status only
                    for end, vals in status(p, m):
                        yield end, Change("update", tg, vals)
    for m in p.w(j, "crud.delete.base"):
        yield m, Change("delete", tg)
    for m in p.w(j, "decompose.verb.base"):
        for end in p.opt(m, "decompose.after"):
            yield end, Change("decompose", tg)
    for m in p.w(j, "crud.assign.base"):
        for n in p.opt(m, "glue.assignee_to", "glue.zh_give"):  # "task 5 assign 给 carol"
            for e, who in person(p, n):
                for end in p.opt(e, "person.take") if p.kind(e - 1, "word") else (e,):  # "交给carol负责"
                    yield end, Change("assign", tg, assignee=who)
    for m in p.w(j, "crud.unassign.base"):
        yield m, Change("unassign", tg)
    for m in p.w(j, "crud.mark.base"):  # "把任务5设为未分配"
        for end in p.w(m, "person.nobody"):
            yield end, Change("unassign", tg)
    for m in p.w(j, "crud.rename.base"):
        for n in p.opt(m, "glue.rename_to"):  # "把 task 5 rename 成 X"
            # A Chinese title needs a word that leads to it, in the verb or after it ("改名为X", "改名叫X", "rename 成
            # X"): "任务5改名失败" renames nothing.
            if n == m and p.kind(n, "han") and m not in p.w(m - 1, "glue.rename_to", "glue.zh_named"):
                continue
            for end, name in title(p, n):
                yield end, Change("rename", tg, title=name)
    if ba:
        for m in p.w(j, "crud.close.base"):
            yield m, Change("update", tg, (("status", "done"),))
        for m in p.w(j, "crud.block.base"):
            yield m, Change("update", tg, (("status", "blocked"),))


# Chinese: the task first (with 把 or without), or the verb first.
def zh_after_task(p: Parser, i: int, tg: Target) -> Iterator[tuple[int, Change]]:
    """The change read after its task and any adverbs ("任务5 | 别 | 删"): what a negation between them negates."""
    for j in _adverbs(p, i):
        yield from _zh_task_first(p, j, tg, ba=False)


def zh_change(p: Parser, i: int) -> Iterator[tuple[int, Change]]:
    for b in p.opt(i, "glue.ba"):
        for t, tg in target(p, b):
            for j in _adverbs(p, t):
                yield from _zh_task_first(p, j, tg, ba=b != i)
    for v in p.w(i, "crud.delete.base"):
        for j, tg in target(p, v):
            if not _owns_more(p, j, tg) and not _takes_out(p, j):
                yield j, Change("delete", tg)
    for v in p.w(i, "crud.close.base"):
        for j, tg in target(p, v):
            yield j, Change("update", tg, (("status", "done"),))
    for v in p.w(i, "crud.block.base"):
        for j, tg in target(p, v):
            yield j, Change("update", tg, (("status", "blocked"),))
    for v in p.w(i, "decompose.verb.base"):
        for j, tg in target(p, v):
            for end in p.opt(j, "decompose.after"):
                yield end, Change("decompose", tg)
    for v in p.w(i, "crud.create.base"):
        for j in p.opt(v, "glue.yige"):
            for k in p.w(j, "glue.zh_task"):
                for m in p.opt(k, "glue.zh_called"):
                    yield from create_fields(p, m)
            for k in p.w(j, "glue.zh_called"):  # "创建一个名为X的任务"
                for m, name in title(p, k):
                    for end in p.w(m, "glue.zh_task_after"):
                        yield end, Change("create", title=name)


def _owns_more(p: Parser, end: int, tg: Target) -> bool:
    """Whether what follows the task is something of its ("task 5's owner", "任务5的截止日期"): then the
    delete is of that, not of the task."""
    return end < p.n and (tg.possessive or bool(list(p.w(end, "glue.de"))) and end + 1 < p.n)


def change(p: Parser, i: int, form: str = "base") -> Iterator[tuple[int, Change]]:
    """Every change that starts at i, in either language."""
    yield from en_change(p, i, form)
    if form == "base":
        yield from zh_change(p, i)
        yield from zh_people(p, i)


def corrected(p: Parser, i: int, first: Change) -> Iterator[tuple[int, Change]]:
    """"…, sorry I meant task 6": the same change on the task named last."""
    for j in p.opt(i, "glue.with"):
        for k in p.w(j, "correction"):
            for end, tg in target(p, k):  # a task by its number: "i mean it" takes nothing back
                if tg.task_id is not None and (first.target.task_id is not None or first.target.scope is not None):
                    yield end, replace(first, target=tg, taken_back=first.target.task_id)


def verbless(p: Parser, i: int) -> Iterator[tuple[int, Change]]:
    """A task and a value or a person with no verb ("WEB-5 → done", "task 5: P0", "任务5的优先级：P0", "#5 → carol",
    "900给carol"): a change named, never asked for, so the reader offers it on a card at most."""
    for j, tg in target(p, i):
        for k, field in _own_field(p, j):
            for m in p.opt(k, "glue.verbless"):
                for end, vals in values(p, m, field):
                    yield end, Change("update", tg, vals)
                if field in (None, "assignee") and (m > k or field):  # "task 5 → carol", "task 5 owner: carol"
                    for end, who in person(p, m):
                        yield end, Change("assign", tg, assignee=who)
                if field == "title" and m > k:  # "task 5 title → Launch plan"
                    for end, name in title(p, m):
                        yield end, Change("rename", tg, title=name)
    for j, tg in target(p, i):  # "900给carol"
        for k in p.w(j, "glue.zh_give"):
            for end, who in person(p, k):
                yield end, Change("assign", tg, assignee=who)
    for j in p.w(i, "glue.new_task"):  # '+task "Release notes"', "新任务：Release notes"; not "a new task was created"
        for k in [*p.w(j, "glue.new_task_mark"), *((j,) if p.kind(j, "quote") else ())]:
            for end, name in title(p, k):
                yield end, Change("create", title=name)
