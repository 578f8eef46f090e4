"""The grammar of an assignment read from the person's side, English and Chinese.

"assign carol to task 5", "put carol on task 5", "let carol take task 5", "take carol off task 5",
"clear the assignee of task 5", "leave task 5 unassigned"; "让carol负责任务5", "把任务5的负责人去掉",
"把carol从任务5上撤下来", "取消任务5的分配". The words are the lexicon's (``person.*``) and crud's
(``staff``, ``unstaff``, ``leave``).
"""
from __future__ import annotations

from collections.abc import Iterator

from .lexicon import NOT_NAMES, PRONOUNS
from .parts import Change, Parser, person, target


def en_people(p: Parser, i: int, form: str) -> Iterator[tuple[int, Change]]:
    """An assignment with the person first: "assign carol to task 5", "take carol off task 5",
    "clear the assignee of task 5", "leave task 5 unassigned" ("let carol take task 5": zh_people)."""
    for v in p.w(i, f"crud.staff.{form}"):
        for j, who in person(p, v):
            for k in p.w(j, "person.onto"):
                for end, tg in target(p, k):
                    yield end, Change("assign", tg, assignee=who)
    for v in p.w(i, f"crud.unstaff.{form}"):
        for j, who in person(p, v):  # the person is kept: the task's assignee must be them (crud checks)
            for k in p.w(j, "person.off"):
                for end, tg in target(p, k):
                    yield end, Change("unassign", tg, assignee=who)
        for j in p.w(v, "person.assignee"):
            for k in p.w(j, "glue.of", "person.off"):
                for end, tg in target(p, k):
                    yield end, Change("unassign", tg)
    for v in p.w(i, f"crud.leave.{form}"):  # "make carol the owner of task 5"
        for j, who in person(p, v):
            for k in p.opt(j, "glue.as"):
                for m in p.w(k, "person.assignee"):
                    for n in p.w(m, "glue.of"):
                        for end, tg in target(p, n):
                            yield end, Change("assign", tg, assignee=who)
    for v in p.w(i, f"crud.leave.{form}"):
        for j, tg in target(p, v):
            for k in p.opt(j, "glue.to"):
                for end in p.w(k, "person.nobody"):
                    yield end, Change("unassign", tg)


def zh_people(p: Parser, i: int) -> Iterator[tuple[int, Change]]:
    """"把任务5的负责人去掉", "把carol从任务5上撤下来", "取消任务5的分配"; and, in either language (the words
    are one class), "让carol负责任务5" / "let carol take task 5"."""
    for b in p.opt(i, "glue.ba"):  # "把任务5的负责人去掉", "900号任务负责人清空一下"
        for j, tg in target(p, b):
            for d in p.opt(j, "glue.de"):
                for e in p.w(d, "person.assignee"):
                    for m in p.opt(e, "courtesy"):
                        for end in p.w(m, "crud.unstaff.base"):
                            yield end, Change("unassign", tg)
    for b in p.w(i, "glue.ba"):
        for j, who in person(p, b):
            for k in p.w(j, "glue.zh_from"):
                for m, tg in target(p, k):
                    for n in p.opt(m, "person.zh_off"):
                        for end in p.w(n, "crud.unstaff.base"):
                            yield end, Change("unassign", tg, assignee=who)
    for v in p.w(i, "person.let"):
        for j, who in person(p, v):
            for k in p.w(j, "person.take"):
                for end, tg in target(p, k):
                    yield end, Change("assign", tg, assignee=who)
    for v in p.w(i, "crud.unstaff.base"):
        for j, tg in target(p, v):
            for k in p.w(j, "glue.de"):
                for end in p.w(k, "person.assignee"):
                    yield end, Change("unassign", tg)


# Words after which a clause starts ("so carol can take it", "since Jess is out").
_CLAUSE_LEADS = frozenset({"so", "since", "because", "as", "and", "but", "now"})


def antecedent(p: Parser) -> str | None:
    """The one person a message names for a pronoun to stand for ("carol has bandwidth, assign it to her",
    "Since Jess is on leave, drop her from #5", "carol这周比较闲，这个任务给她吧"): a word no phrase of the
    grammar holds and no pronoun, first in the message or in a clause, or capitalised inside one. None
    when there is none or more than one: a pronoun then stands for no one."""
    if not any(t in PRONOUNS for t in p.texts):
        return None
    found: dict[str, str] = {}
    for i, token in enumerate(p.tokens):
        word = token.text.removesuffix("'s")
        if token.kind != "word" or word in NOT_NAMES or word in p.lex.known or not word.isalpha():
            continue
        raw = p.raw(i, i + 1)
        # Not a team or product in capitals ("QA", "PM"), an adverb ("Honestly"), nor someone addressed ("Hi Bob,").
        if raw.isupper() or word.endswith("ly") or i + 1 < p.n and p.texts[i + 1] == "," and i <= 1:
            continue
        starts = i == 0 or p.tokens[i - 1].kind in ("punct", "han") or p.texts[i - 1] in _CLAUSE_LEADS
        if starts or raw[:1].isupper():
            found.setdefault(word, raw.removesuffix("'s").removesuffix("’s"))
    return next(iter(found.values())) if len(found) == 1 else None
