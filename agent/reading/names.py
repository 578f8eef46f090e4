"""Where a question names a person or a project: the words a query keeps as written for its node to find.

A person: after "assigned to" or "for" ("… for alice?", "for carol in Mobile App"), before "负责的" /
"手上" / "的任务", in "what does dave have", or a word of no class of the grammar's standing against
Chinese ("bob 本月 due 的任务", "carol的P1任务") or leading a terse question ("carol P0"). A project: after
"in" ("in Website Redesign", "在 Customer Portal 里"), two capitalised words before "tasks" or Chinese
("which Mobile App tasks", "Data Platform 项目的"), or Chinese characters before "项目" ("数据平台项目里").
Either is kept as written: the query node finds it among the user's projects and their members, or
asks, so a word taken for a name is never answered as if it were one.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from .lexicon import NOT_NAMES, PRIORITIES, STATUSES
from .parts import Parser
from .query_words import DUE_RANGES, READS
from .repair import corrected

_ISO_WEEK = re.compile(r"^\d{4}-W\d{2}$", re.IGNORECASE)
# Words that begin another filter: a name ends before one ("in Mobile App due before Friday").
FILTER_STARTS = ("range.due", "range.zh_due", "read.overdue", "read.assigned", "read.unassigned", "read.open",
                 "read.week", *(f"range.{name}" for name in DUE_RANGES), *(f"status.{s}" for s in STATUSES))
_NOT_A_NAME = ("read.mine", "read.known", "read.this_task", "read.here", "courtesy", "query.ask", "query.noun",
               "glue.zh_me", "read.owned_zh", "read.nobody_zh")
_JOINS_NAMES = frozenset({"or", "and", "或", "或者", "和"})
_CLAUSE_STARTS = frozenset({"that", "which", "where", "whose", "who"})  # "in Website Redesign that are blocked"
# The one-word values of the filters: a word one letter from one is that word misspelt, not a name.
_FILTER_WORDS = frozenset(w for table in (STATUSES, PRIORITIES) for words in table.values() for w in words
                          if w.isascii() and " " not in w) | frozenset(READS["overdue"]) | frozenset(READS["open"])
_HAVING = ("有", "带", "含", "带有", "包含")
# A word before "'s" that makes a contraction, no one's possessive ("that's", "what's", "let's").
CONTRACTED = frozenset({"that", "it", "what", "there", "here", "who", "let", "he", "she", "where", "how", "when",
                        "why", "nobody", "everyone", "everybody", "someone"})
# What may follow a project's name written in capitals: "Mobile App tasks", "Data Platform 项目".
_AFTER_PROJECT = ("query.noun", "read.project")


def capitalised(p: Parser, i: int) -> bool:
    return i < p.n and p.tokens[i].kind == "word" and p.raw(i, i + 1)[:1].isupper()


def name_word(p: Parser, i: int) -> bool:
    """A word that is none of the grammar's, nor a filter's word misspelt ("blcoked"), nor what tasks have ("有
    comments 的任务"): it may be a person's name."""
    return (p.kind(i, "word") is not None and p.texts[i] not in p.lex.known and p.texts[i] not in NOT_NAMES
            and corrected(p.texts[i]) not in _FILTER_WORDS and not (i > 0 and p.texts[i - 1] in _HAVING))


def _ends_name(p: Parser, start: int, i: int) -> bool:
    """Whether a project's name that began at `start` ends before the token at i.

    A capitalised word never ends it ("Customer Assigned Leads"). A lower-case word that begins another
    filter or a clause does ("in Mobile App due before Friday", "in Website Redesign that are blocked").
    A name begun with a capital ends at a lower-case word no capitalised one follows ("in Support Portal
    are waiting", but "Bill of Materials") and at Chinese ("在 Customer Portal 的逾期任务")."""
    if p.texts[i] in _JOINS_NAMES:  # "in Website Redesign or Mobile App" names two projects, not one
        return True
    if capitalised(p, i):
        return False
    if p.texts[i] in _CLAUSE_STARTS or list(p.w(i, *FILTER_STARTS)):
        return True
    if not capitalised(p, start):  # a name in lower case holds no word of the grammar's ("in apollo low priority")
        if p.tokens[i].kind == "han":
            return p.lex.phrase_at(p.texts, i)
        return p.texts[i] in p.lex.known or p.texts[i] in NOT_NAMES
    return p.tokens[i].kind == "han" or p.tokens[i].kind == "word" and not capitalised(p, i + 1)


def project_named(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """"in Website Redesign", "for project Apollo", "在 Website Redesign 项目里": the words up to a mark;
    "Mobile App tasks", "Data Platform 项目的", "数据平台项目里"."""
    for j in p.w(i, "read.in"):
        for k in p.opt(j, "read.project"):
            quote = p.kind(k, "quote")
            if quote:
                yield next(p.w(k + 1, "read.project"), k + 1), quote.value
                continue
            if k >= p.n or p.texts[k] in NOT_NAMES or p.kind(k, "num"):  # "… in", "for today", "in 2027": none
                continue
            end = k
            while end < p.n and (p.tokens[end].kind in ("word", "num", "han") or p.texts[end] == "-" and end > k) \
                    and not list(p.w(end, "read.project", "courtesy")) and not (end > k and _ends_name(p, k, end)):
                end += 1
            while end > k and p.texts[end - 1] == "-":  # "in Apollo - blocked": the dash is no part of it
                end -= 1
            # One Chinese character is no project's name: "carol在等的任务" is what carol waits on.
            if end - k == 1 and p.tokens[k].kind == "han":
                continue
            # "in progress", "for last week", "in this project" are not names.
            if end > k and not list(p.w(k, "read.week", "read.here", "read.mine", "glue.me",
                                        *(f"status.{s}" for s in STATUSES))) \
                    and not _ISO_WEEK.match(p.raw(k, end)):
                yield next(p.w(end, "read.project"), end), p.raw(k, end)
    # Two or more capitalised words before what is listed or Chinese: "which Mobile App tasks are blocked",
    # "Website Redesign 有哪些逾期任务？", "Data Platform 项目的 open tasks".
    end = i
    while not (i > 0 and capitalised(p, i - 1)) and capitalised(p, end) and p.texts[end] not in p.lex.known:
        end += 1
    if end - i >= 2 and end < p.n and (p.tokens[end].kind == "han" or list(p.w(end, *_AFTER_PROJECT))):
        yield next(p.w(end, "read.project"), end), p.raw(i, end)
    # Chinese characters before "项目" ("数据平台项目里"), or leading the question before "里" ("数据平台里逾期的").
    end = i
    while end < p.n and end - i < 12 and _plain_han(p, end) and not list(p.w(end, "read.project")):
        end += 1
    if end - i >= 2 and (p.texts[end:end + 2] == ("项", "目") or i == 0 and list(p.w(end, "read.project"))):
        yield next(p.w(end, "read.project"), end), p.raw(i, end)


def _plain_han(p: Parser, i: int) -> bool:
    """A Chinese character where no word of the grammar's starts: it may be part of a name."""
    return p.kind(i, "han") is not None and p.texts[i] != "的" and not list(p.w(
        i, *FILTER_STARTS, *_NOT_A_NAME, "read.in", "query.ask", "range.zh_by", "range.zh_after",
        *(f"priority.{name}" for name in PRIORITIES)))


def lone_name(p: Parser, i: int) -> bool:
    """A lower-case word no word of the grammar's, ending the question or a filter ("… for alice?", "for carol
    in Mobile App", "for ivan that are low priority")."""
    if not name_word(p, i) or capitalised(p, i):
        return False
    after = i + 1
    if after < p.n and p.tokens[after].kind == "punct" and after + 1 < p.n:  # "… for carol, please"
        after += 1
    return (all(t.kind == "punct" for t in p.tokens[after:]) or p.texts[after] in _CLAUSE_STARTS
            or list(p.w(after, "read.in", "courtesy", "closer.plain", *FILTER_STARTS)) != [])


def person_before(p: Parser, i: int) -> str | None:
    """A word of no class standing for a person: before Chinese ("bob 本月 due", "carol的P1任务"; never before
    "里"/"项目", where it names a project), in "what does dave have", or leading a terse question ("carol P0")."""
    if not name_word(p, i) or p.texts[i].endswith("'s"):  # "carol's overdue tasks": the possessive reads it
        return None
    if list(p.w(i + 1, "read.assigned")):  # "alice分配给bob的任务": alice assigned them, bob has them
        return None
    # Not before "是" ("label 是 backend": a field and its value) nor before "里" (a project's name).
    if p.kind(i + 1, "han") and p.texts[i + 1] not in ("是", "为") and not list(p.w(i + 1, "read.project")):
        return p.raw(i, i + 1)
    if i > 0 and p.texts[i - 1] in ("does", "do") and p.texts[i + 1:i + 2] in (("have",), ("got",)):
        return p.raw(i, i + 1)
    if i == 0 and (p.kind(1, "prio") or list(p.w(1, *FILTER_STARTS))):
        return p.raw(0, 1)
    return None


def person(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """A person's name after "assigned to": one word ("carol"), or Chinese characters up to 的 ("小王")."""
    if p.kind(i, "word") and not list(p.w(i, "read.known", "courtesy", "query.noun")):
        yield i + 1, p.raw(i, i + 1)
        return
    end = i
    while end < p.n and end - i < 4 and p.kind(end, "han") and not list(p.w(end, "glue.de")):
        end += 1
    if end > i and list(p.w(end, "glue.de")):
        yield end, p.raw(i, end)


def owner_zh(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """A person before "负责的" / "手上的" (a word, or up to four Chinese characters), or a word before "的任务"
    (not after "有": "有 comments 的任务" are tasks that have some)."""
    if p.kind(i, "word") and not name_word(p, i):
        return
    if p.kind(i, "word"):  # "blocked 的任务" names a status, no one
        for end in p.w(i + 1, "read.owned_zh", "read.tasks_of_zh"):
            yield end, p.raw(i, i + 1)
        return
    for end in range(i + 1, min(p.n, i + 4) + 1):  # a name holds no word of the lexicon's ("任务是我负责的")
        if not p.kind(end - 1, "han") or list(p.w(end - 1, *_NOT_A_NAME)):
            return
        for after in p.w(end, "read.owned_zh"):
            yield after, p.raw(i, end)
