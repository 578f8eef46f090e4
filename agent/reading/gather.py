"""A change pieced together from a message no rule reads whole or in part: offered on a card, never run.

When the grammar finds no change (reader.py), the reader looks for one change's parts anywhere in
the message: the task it acts on, and the words of one write with what that write needs.

    delete     a delete verb, of the task itself             "900号任务不要了，帮我删了吧"
    decompose  a breakdown verb, or "into subtasks"          "this one's too big — chop it into subtasks"
    unassign   an unassign verb, or the assignee cleared      "#900暂时没人跟，清空负责人"
    assign     an assign word and one person it goes to      "Mike's out on leave, so pass #900 to carol"
    rename     a rename verb or the title's name, one title   "现在的名字太 generic 了，麻烦改成 Launch plan"
    update     a value and a verb that sets it, or its field  "shipped it 🚀 can you flip task 900 to done"
               or a value written as one ("P0", "2026-12-31")     "P0 for task 900 thx"
    create     a create verb and one title, no task named     "spin up a task named Release notes"

A word is one of these only in the forms a request or a wish uses (the plain form and the past
participle: "delete", "deleted"). A priority or a date in words counts only where a value is led to
("to", "为", "改成", "deadline", …), never after "not" ("no longer", "anything but"); "P0", "2026-12-31"
and a day with its year ("Dec 31, 2026", "2026年12月31日") anywhere. A delete of what a task holds ("remove
the label from this task") is none. The task is one task reference, else the message's one number
standing alone right after a change's verb or before an arrow ("reassign 900 → carol"), else the page's
task ("this task", "it", "这个任务", "its due date").
Exactly one change so pieced is offered on a card that states it, for the user to approve or not;
none, two different ones, two tasks, or a question that asks nothing of the assistant ("task 5
finished?"): the reader answers or asks.
Pieced together, a change is never a request: the words around it were not read.
"""
from __future__ import annotations

from collections.abc import Iterator

from .dates import YEAR
from .lexicon import FIELDS
from .parts import CHANGE_VERBS, Change, Parser, Target, asks_assistant, bare_number, named_for, person, title, value

_FORMS = ("base", "pp")
# Where a value is led to: a priority or a date in words is read only after one of these.
_LEADS = ("glue.to", "glue.zh_to", "glue.verbless", "glue.due", "glue.rename_to", "crud.mark.base",
          "field.due_date", "field.priority", "field.status")
_ARROWS = frozenset({"→", "->", "=>", ":"})
# Marks that may stand between a lead and its value: a comma, a colon, a dash.
_PAUSES = frozenset({",", ":", "-"})
_NOT = frozenset({"not", "never", "longer", "but", "except", "without", "不", "未", "没", "非"})
# What a task holds or belongs to that is no task: "remove the label from this task", "… from the sprint".
_PARTS = frozenset({"label", "labels", "tag", "tags", "estimate", "blocker", "blockers", "comment", "comments",
                    "attachment", "attachments", "link", "links", "watcher", "watchers", "sprint", "board",
                    "milestone", "标签", "评论", "附件", "链接", "冲刺", "里程碑"})
_FIELDS = tuple(f"field.{name}" for name in FIELDS)


def _at(p: Parser, *classes: str) -> list[tuple[int, int]]:
    """Every (start, end) of a phrase of these classes in the message."""
    return [(i, end) for i in range(p.n) for end in p.w(i, *classes)]


def _verbs(p: Parser, *names: str) -> list[tuple[int, int]]:
    return _at(p, *(f"{name}.{form}" for name in names for form in _FORMS))


def _after(p: Parser, ends: list[int], *, pauses: bool = False) -> Iterator[int]:
    """Each position right after one of these ends, or after courtesy that follows it ("标记一下完成"); with
    `pauses`, also after a comma, colon or dash that follows either ("截止日期，12月31日")."""
    for end in ends:
        for start in (end, *p.w(end, "courtesy")):
            yield start
            if pauses and start < p.n and p.tokens[start].kind == "punct" and p.tokens[start].text in _PAUSES:
                yield start + 1


def _task(p: Parser) -> Target | None | bool:
    """The one task the message names: a reference, else a number standing alone (_bare_tasks), else the
    page's task; None for none, False for two."""
    ids = {int(t.value) for t in p.tokens if t.kind == "ref"} or _bare_tasks(p)
    if len(ids) > 1:
        return False
    if ids:
        return Target(task_id=ids.pop())
    vague = set(_at(p, "target.vague"))
    page = [span for span in _at(p, "target.selected") if span not in vague]
    owner = [end for _, end in _at(p, "target.selected_of") if list(p.w(end, *_FIELDS))]
    return Target(scope="selected") if page or owner else None


def _bare_tasks(p: Parser) -> set[int]:
    """The one number standing alone in the message, when it stands right after a verb of a change or right
    before an arrow ("reassign 900 → carol", "status of 900 → blocked"); none when another number stands
    alone too, and any other number (a count, a price, a year) is no task."""
    bare = [i for i in range(p.n) if bare_number(p, i) is not None]
    if len(bare) != 1:
        return set()
    i, verbs = bare[0], {end for _, end in _verbs(p, *CHANGE_VERBS)}
    return {int(p.tokens[i].text)} if i in verbs or i + 1 < p.n and p.tokens[i + 1].text in _ARROWS else set()


def _affirmed(p: Parser, spans: list[tuple[int, int]]) -> bool:
    """Whether one of these words stands with no "not" before it ("not blocked", "未完成", "没完成" set nothing)."""
    return any(not (i and p.texts[i - 1] in _NOT) for i, _ in spans)


def _values(p: Parser) -> tuple[tuple[str, str], ...] | None:
    """Every value named, one per field; None when a field is given two."""
    leads = [end for _, end in _at(p, *_LEADS)] + [i + 1 for i, t in enumerate(p.tokens) if t.text in _ARROWS]
    found: dict[str, set[str]] = {}
    if _affirmed(p, _verbs(p, "crud.close")):  # "finish", "完成": done; "block", "挂起": blocked
        found["status"] = {"done"}
    if _affirmed(p, _verbs(p, "crud.block")):
        found.setdefault("status", set()).add("blocked")
    for i in range(p.n):
        if i and p.texts[i - 1] in _NOT:  # "mark task 5 as not done" names no status to set
            continue
        for _end, vals in value(p, i, "status"):
            found.setdefault("status", set()).update(v for _, v in vals)
        if p.tokens[i].kind in ("prio", "date"):
            found.setdefault("priority" if p.tokens[i].kind == "prio" else "due_date", set()).add(p.tokens[i].value)
    i = 0
    while i < p.n:  # a day with its year, anywhere: "Dec 31, 2026 — that's the new due date"
        end, vals = next(value(p, i, "due_date"), (i + 1, ()))
        if vals and YEAR.search(p.raw(i, end)):
            found.setdefault("due_date", set()).update(v for _, v in vals)
            i = end - 1  # not again from inside the same phrase ("3, 2027")
        i += 1
    for i in set(_after(p, leads, pauses=True)):
        for field in ("priority", "due_date"):
            # The longest phrase a value is read from ("Dec 31, 2026", not "Dec" too).
            for _end, vals in value(p, i, field):
                found.setdefault(field, set()).update(v for _, v in vals)
                break
    if any(len(v) > 1 for v in found.values()):
        return None
    return tuple((field, v.pop()) for field, v in sorted(found.items()))


def _people(p: Parser) -> set[str]:
    """The people a task is handed to: after "to", "给", "让", an assign verb, or the assignee's field."""
    leads = [end for _, end in _at(p, "glue.assignee_to", "person.let", "person.onto")]
    assigns = _verbs(p, "crud.assign")
    leads += [end for _, end in assigns]
    if assigns:  # "reassign 900 → carol" (not a colon: "reassign #900: dave is out sick")
        leads += [i + 1 for i, t in enumerate(p.tokens) if t.text in _ARROWS - {":"}]
    for _, end in _at(p, "field.assignee", "person.assignee"):  # "负责人改成carol", "负责人，换成carol"
        leads.append(end)
        for start in _after(p, [end], pauses=True):
            leads += p.w(start, "glue.to", "glue.verbless", "crud.mark.base")
    names = set()
    for i in set(_after(p, leads)):
        for _end, who in person(p, i):
            if who == "me" or p.tokens[i].text not in p.lex.known:
                names.add(who)
    return names


def _titles(p: Parser, leads: list[int]) -> set[str]:
    """A new title: the quoted text, else the longest unquoted title after one of these leads."""
    quoted = {t.value for t in p.tokens if t.kind == "quote" and t.value}
    if quoted:
        return quoted
    found = set()
    for i in set(_after(p, leads)):
        longest = None
        for _end, name in title(p, i):
            longest = name
        if longest and p.tokens[i].text not in p.lex.known:
            found.add(longest)
    return found


def _asks(p: Parser) -> bool:
    """Whether a question is put to the assistant: no "?" or "吗" ("task 5 finished?", "任务5完成了吗" are not
    pieced together), or a word that asks ("can you", "please", "好吗")."""
    return not any(t.text in ("?", "吗") for t in p.tokens) or asks_assistant(p)


def _changes(p: Parser, tg: Target | None) -> Iterator[Change]:
    unstaff = {i for i, _ in _verbs(p, "crud.unstaff")}
    # The assignee cleared: its name with a verb that takes it off, an unassign verb, or "nobody".
    cleared = (bool(unstaff) and bool(_at(p, "field.assignee", "person.assignee"))
               or bool(_verbs(p, "crud.unassign")) or bool(_at(p, "person.nobody")))
    if tg is not None:
        if cleared:
            yield Change("unassign", tg)
        # A delete of something of the task's ("delete the due date of task 5", "task 5's subtasks") is none.
        of_part = bool(_at(p, *_FIELDS, "decompose.into")) or any(t.possessive for t in p.tokens) or any(
            text in _PARTS or "".join(p.texts[i:i + 2]) in _PARTS for i, text in enumerate(p.texts))
        if not of_part and any(i not in unstaff or not cleared for i, _ in _verbs(p, "crud.delete")):
            yield Change("delete", tg)
        if _verbs(p, "decompose.verb") or _at(p, "decompose.into"):
            yield Change("decompose", tg)
        if _verbs(p, "crud.assign", "crud.staff") or _at(p, "person.let", "person.take", "field.assignee"):
            people = _people(p)
            if len(people) == 1:
                yield Change("assign", tg, assignee=people.pop())
        renames = _verbs(p, "crud.rename") + _at(p, "field.title")
        if renames:
            names = _titles(p, [end for _, end in _at(p, "glue.rename_to", "glue.called", "glue.zh_named",
                                                      "crud.mark.base")])
            if len(names) == 1:
                yield Change("rename", tg, title=names.pop())
        yield from _update(p, tg)
    elif not any(t.kind == "ref" for t in p.tokens) and _verbs(p, "crud.create"):
        # After "for" only a title that reads as one ("a to-do for Release notes"; not "a task for carol").
        names = _titles(p, [end for start, end in _at(p, "glue.called", "glue.zh_called")
                            if p.texts[start] != "for" or named_for(p, end)])
        if len(names) == 1:
            yield Change("create", title=names.pop())


def _update(p: Parser, tg: Target) -> Iterator[Change]:
    vals = _values(p)
    if not vals:
        return
    setters = _verbs(p, "crud.mark", "crud.set", "crud.close", "crud.block")
    # A value written as one ("P0", "2026-12-31") says which field it sets: "P0 for task 900 thx".
    written = any(t.kind in ("prio", "date") for t in p.tokens)
    if setters or written or _at(p, *(f"field.{name}" for name in ("status", "priority", "due_date"))):
        yield Change("update", tg, vals)


def gathered(p: Parser) -> Change | None:
    """The one change the message's parts make, or None (none, two, or a question that asks nothing)."""
    if not _asks(p):
        return None
    tg = _task(p)
    if tg is False:
        return None
    found = set(_changes(p, tg if isinstance(tg, Target) else None))
    return found.pop() if len(found) == 1 else None

