"""The parts every rule of a change reads: the parser over tokens, a target, a person, a title and values.

Each is a generator: given where to start, it yields every (end, value) it can read there, so a rule
backtracks by reading on from each (grammar.py, people.py).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from .dates import read_date
from .lexicon import FIELDS, FRAMES, NOT_NAMES, PRIORITIES, PRONOUNS, STATUSES, lexicon
from .tokens import Token, tokenize

Values = tuple[tuple[str, str], ...]
_DATE_SEPARATORS = frozenset({",", "/", "."})
# A second instruction after a title: "and" or "并" and a change's verb.
_AND = frozenset({"and", "then", "并", "然后", "再", "并且"})
# The verbs of a change to a task, by lexicon class (each in the forms the lexicon gives it).
CHANGE_VERBS = (*(f"crud.{verb}" for verb in ("mark", "set", "close", "block", "delete", "assign", "unassign",
                                               "rename")), "decompose.verb")
_VERBS = tuple(f"{verb}.base" for verb in (*CHANGE_VERBS, "crud.create"))
# How many spans of words one message is read for a date (dateparser takes about a millisecond each).
_DAY_READS = 300


@dataclass(frozen=True)
class Target:
    task_id: int | None = None
    scope: str | None = None  # "selected" (the task on the page) or "visible" (the rows shown)
    possessive: bool = False
    # "any task", "a task": no task in particular, so a change on it is never asked for (only negated or
    # questioned: "don't delete any task").
    anyone: bool = False


@dataclass(frozen=True)
class Change:
    """A write the grammar read: its operation on its target with its values."""

    operation: str  # update, delete, create, decompose, assign, unassign, rename
    target: Target = Target()
    values: Values = ()
    title: str | None = None
    assignee: str | None = None
    # The task a correction took back ("set task 5 to blocked, sorry I meant task 6": 5), else None.
    taken_back: int | None = None


class Parser:
    def __init__(self, text: str, tokens: tuple[Token, ...]) -> None:
        self.text, self.tokens, self.n = text, tokens, len(tokens)
        self.texts = tuple(t.text for t in tokens)
        self.lex = lexicon()
        self._days: dict[tuple[int, int, bool], date | None] = {}
        # Who "her", "him", "她" or "他" stands for (antecedent()): set only where a change is read to be offered.
        self.antecedent: str | None = None

    def day(self, i: int, end: int, *, recent: bool = False) -> date | None:
        """The day the words from i to end name (dates.read_date), read once per span; past the budget of
        spans a message may have read, none (a message of hundreds of numbers is not read for dates)."""
        if (i, end, recent) not in self._days:
            if len(self._days) >= _DAY_READS:
                return None
            self._days[(i, end, recent)] = read_date(self.raw(i, end), recent=recent)
        return self._days[(i, end, recent)]

    def w(self, i: int, *classes: str) -> Iterator[int]:
        """The ends of the phrases of these classes that start at i, the longest first."""
        for name in classes:
            yield from self.lex.match(self.texts, i, name)

    def around(self, i: int, cls: str, inner: Iterator[tuple[int, Target]]) -> Iterator[tuple[int, Target]]:
        """A phrasal verb of the class split around what it acts on ("wrap task 5 up", "tick WEB-5 off"):
        each (end, target) read after the verb's first word and closed by the rest of the phrase."""
        rests = self.lex.split(self.texts, i, cls)
        if not rests:
            return
        for j, tg in inner:
            for rest in rests:
                if self.texts[j:j + len(rest)] == rest:
                    yield j + len(rest), tg

    def opt(self, i: int, *classes: str) -> Iterator[int]:
        yield from self.w(i, *classes)
        yield i

    def kind(self, i: int, kind: str) -> Token | None:
        return self.tokens[i] if i < self.n and self.tokens[i].kind == kind else None

    def raw(self, i: int, j: int) -> str:
        return self.text[self.tokens[i].start:self.tokens[j - 1].end].strip()


def asks_assistant(p: Parser) -> bool:
    """Whether a word asks the assistant for something: a request frame ("could you", "能不能", "帮我") or a
    closer ("please", "好吗"), anywhere in the message."""
    classes = (*(f"frame.{kind}" for kind in FRAMES), "closer.ask", "closer.plain")
    return any(list(p.w(i, *classes)) for i in range(p.n))


# Values: a status, a priority, a due date.
def status(p: Parser, i: int) -> Iterator[tuple[int, Values]]:
    for name in STATUSES:
        for end in p.w(i, f"status.{name}"):
            yield end, (("status", name),)
            for after in p.w(end, "field.status"):  # "改成已完成状态"
                yield after, (("status", name),)


def priority(p: Parser, i: int) -> Iterator[tuple[int, Values]]:
    token = p.kind(i, "prio")
    if token:
        yield i + 1, (("priority", token.value),)
        for end in p.w(i + 1, "field.priority"):  # "P0 priority"
            yield end, (("priority", token.value),)
    for name in PRIORITIES:  # "top priority", "最高"
        for end in p.w(i, f"priority.{name}"):
            yield end, (("priority", name),)


def due(p: Parser, i: int, *, recent: bool = False) -> Iterator[tuple[int, Values]]:
    token = p.kind(i, "date")  # a day: the tokens hold no other
    if token:
        yield i + 1, (("due_date", token.value),)
        return
    for end in range(min(p.n, i + 8), i, -1):  # the longest span of words dateparser reads
        # "December 31, 2026", "12/31", "12.31": a separator inside, never at either end.
        inner = p.tokens[i + 1:end - 1]
        # A span that cuts a figure in two ("in 1" of "in 1.5 weeks") or from its unit ("in 1.5" of it) reads no day.
        cuts = p.tokens[end - 1].kind == "num" and end < p.n and (
            end + 1 < p.n and p.tokens[end].text in _DATE_SEPARATORS and p.tokens[end + 1].kind == "num"
            or bool(list(p.w(end, "glue.unit"))))
        if not cuts and all(t.kind in ("word", "han", "num") for t in (p.tokens[i], p.tokens[end - 1])) and all(
                t.kind in ("word", "han", "num") or t.text in _DATE_SEPARATORS for t in inner):
            day = p.day(i, end, recent=recent)
            # A last word of the grammar's own the day does not need ("Friday in Mobile App") is left for
            # what follows; a word of the date stays ("June 1st", "Friday evening").
            shorter = end - i > 1 and p.tokens[end - 1].kind == "word" and p.tokens[end - 1].text in p.lex.known
            if day is not None and not (shorter and p.day(i, end - 1, recent=recent) == day):
                yield end, (("due_date", day.isoformat()),)


def value(p: Parser, i: int, field: str | None = None) -> Iterator[tuple[int, Values]]:
    rules = {"status": status, "priority": priority, "due_date": due}
    for name, rule in rules.items():
        if field in (None, name):
            yield from rule(p, i)
    quote = p.kind(i, "quote")
    if quote:  # a value in quotes ('mark task 5 as "done"', "状态改为“阻塞”"): its words, and nothing else
        inner = Parser(quote.value, tokenize(quote.value))
        for end, vals in value(inner, 0, field):
            if end == inner.n and inner.n:
                yield i + 1, vals


def values(p: Parser, i: int, field: str | None = None) -> Iterator[tuple[int, Values]]:
    """One value, or two of different fields, joined or side by side."""
    for end, first in value(p, i, field):
        yield end, first
        for j in p.opt(end, "glue.with"):  # "due 2026-12-15 P1", "to P0 and due Friday"
            for k in p.opt(j, "glue.due", "field.priority", "field.status"):
                # Side by side, with no word that leads to it, only a value in figures ("P1", "2026-12-15"):
                # "mark task 5 as done today" sets no due date.
                if k == j and (j >= p.n or p.tokens[j].kind not in ("prio", "date")):
                    continue
                # "mark task 5 done by friday", "bump it to P0 by Monday": when to do it, not a due date to set.
                if p.texts[j:k] == ("by",):
                    continue
                for last, second in value(p, k):
                    if second[0][0] != first[0][0]:
                        yield last, first + second


def field_name(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    for name in FIELDS:
        for end in p.w(i, f"field.{name}"):
            yield end, name


def bare_number(p: Parser, i: int) -> Token | None:
    """A number standing alone where a task goes ("del 900", "mark 900 as done"): after a space or a mark,
    not a count ("3 tasks", "2 天"), not part of a date ("12/31")."""
    token = p.kind(i, "num")
    if token is None or token.start and (p.text[token.start - 1].isalnum() or p.text[token.start - 1] == "#"):
        return None
    after = p.tokens[i + 1] if i + 1 < p.n else None
    if after is not None and (list(p.w(i + 1, "glue.unit")) or after.text in _DATE_SEPARATORS | {"-"}
                              and after.start == token.end):
        return None
    return token


# What "this" or "这个" may name besides a task.
_NAMED_BY_THIS = frozenset({"week", "month", "year", "quarter", "sprint", "morning", "afternoon", "evening", "time",
                            "weekend", "project", "page", "list", "月", "周", "星期", "礼拜", "季度", "项目", "页面"})


def target(p: Parser, i: int) -> Iterator[tuple[int, Target]]:
    for j in p.opt(i, "glue.task", "glue.zh_task"):  # "task WEB-5", "任务 WEB-5"
        token = p.kind(j, "ref")
        if token:
            yield j + 1, Target(task_id=int(token.value), possessive=token.possessive)
    bare = bare_number(p, i)
    if bare is not None:
        yield i + 1, Target(task_id=int(bare.text))
    for end in p.w(i, "target.any"):
        yield end, Target(scope="selected", anyone=True)
    for scope in ("selected", "visible"):
        for end in p.w(i, f"target.{scope}"):
            # "this week", "这个月": a word after "this" that it names is no task ("tasks completed this week").
            if not list(p.w(i, "target.any")) and not (list(p.w(i, "target.vague")) and p.texts[end:end + 1]
                                                       and p.texts[end] in _NAMED_BY_THIS):
                yield end, Target(scope=scope)


def named_for(p: Parser, i: int) -> bool:
    """After "a task for": a quoted or capitalised title that is no day ("for Release notes"; not "for carol",
    "for Friday", "for me")."""
    return bool(p.kind(i, "quote")) or p.raw(i, i + 1)[:1].isupper() and not list(due(p, i))


# What may follow a pronoun that stands for a person ("assign it to her as owner", "put her on it", "给她吧").
_AFTER_PRONOUN = frozenset({"as", "from", "on", "off", "onto", "to", "instead", "please", "pls", "thanks", "thx", "now",
                            "today", "吧", "呗", "哈", "啊", "了", "负责", "来"})


def person(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """Me, or a name: a word that is no word of the grammar's own ("to", "the", "please") and names someone
    ("nobody", "them", "friday" do not); where the parser has an antecedent, the pronoun that stands for it."""
    for end in p.w(i, "glue.me", "glue.zh_me"):
        yield end, "me"
    if p.antecedent is not None and i < p.n and p.texts[i] in PRONOUNS and (
            i + 1 == p.n or p.tokens[i + 1].kind not in ("word", "han") or p.texts[i + 1] in _AFTER_PRONOUN):
        yield i + 1, p.antecedent  # "… to her", "… to her please", not "… to her team", "给她的团队"
    token = p.kind(i, "word")
    # Not "carol's" (her backup, her team) nor a name of two capitalised words ("to Mobile App": a project's).
    two_names = i + 1 < p.n and p.raw(i, i + 1)[:1].isupper() and p.raw(i + 1, i + 2)[:1].isupper() and \
        p.tokens[i + 1].kind == "word"
    if token and token.text not in NOT_NAMES and not token.text.endswith("'s") and not two_names and not list(
            p.w(i, "glue.the", "glue.a", "glue.open", "glue.to", "person.onto", "person.off", "courtesy")):
        yield i + 1, p.raw(i, i + 1)


# Lower-case words that begin a hedge, a condition or a question, never a title ("new task: not sure yet", "new
# task: what should I call it", "new task: none"); an imperative may ("create a task: don't forget the milk").
_NOT_FIRST = frozenset({"not", "none", "whatever", "idk", "tbd", "what", "if", "unless", "sorry", "actually", "maybe",
                        "perhaps"})
# A Chinese title begins with none of these (a negation, the rest of 叫做/叫作), and holds no question word or
# "already": it is then a question or a statement, not a name.
_ZH_NOT_FIRST = frozenset({"不", "没", "做", "作", "啥", "就"})
_ZH_NOT_IN = ("啥", "什么", "哪", "吗", "呢", "么", "多少", "几个", "已经", "随便", "合适", "比较")
# Lower-case words that lead to what follows them, never the first word of a title.
_LEADS = frozenset({"called", "named", "titled", "for", "to", "with", "of", "in", "on", "at", "by", "from", "into",
                    "and", "or", "about", "as", "a", "an",
                    # and a verb of being: "a new task was created", "new task is blocked" name no title
                    "is", "was", "are", "were", "has", "have", "had", "been", "will"})
_NO_START = _LEADS | _NOT_FIRST


def title(p: Parser, i: int) -> Iterator[tuple[int, str]]:
    """A new task's title: quoted, else the words up to what follows it, the shortest first.

    An unquoted title holds no mark, no quote and no clause after its first word ("… called X if the
    client agrees" leaves "if the client agrees" unread), does not begin with the word that leads to
    it ("rename task 5 成 X" is never titled "成 X") and does not end on a word that needs one after
    it ("make carol the owner of this task" holds no title "carol the owner of this") or on one that
    closes a request ("改成 Launch plan哈" is titled "Launch plan"), and names no task ("… and delete task
    6"): quoted, a title may hold anything.
    """
    token = p.kind(i, "quote")
    if token:
        if token.value:  # quotes around nothing ("rename task 5 to “ ”") are no title
            yield i + 1, token.value
        return
    # "create a task called ASAP", "add a task for carol", "新建任务，标题是X": a word that leads on; "create a
    # docs task" is no task titled "a docs".
    if i >= p.n or list(p.w(i, "glue.rename_to", "glue.zh_called", "field.title")) or \
            p.texts[i] in _NO_START and p.raw(i, i + 1).islower():
        return
    for end in range(i + 1, p.n + 1):
        # No task named inside, no second instruction ("… to Launch plan and delete task 6", "… called Fix
        # login bug and assign it to me" are no titles).
        if p.tokens[end - 1].kind in ("punct", "sym", "quote", "ref") or end - 1 > i and (
                list(p.w(end - 1, "clause")) or p.texts[end - 1] in _AND and list(p.w(end, *_VERBS, "glue.a"))):
            break
        if not list(p.w(end - 1, "glue.open", "closer.plain", "closer.ask")) and _names_something(p, i, end):
            yield end, p.raw(i, end)


def _names_something(p: Parser, i: int, end: int) -> bool:
    """Whether the words make a title: not only words that name none ("a new", "the next", "another"), and not a
    status or priority or one Chinese character alone ("call it Done" may mean marking it done)."""
    if all(list(p.w(k, "glue.no_title")) for k in range(i, end)):
        return False
    if p.tokens[i].kind == "han" and (p.texts[i] in _ZH_NOT_FIRST or any(w in p.raw(i, end) for w in _ZH_NOT_IN)):
        return False  # "新建任务，标题是啥来着", "叫不出来", "叫做登录修复" (做 is 叫's), "…的任务已经存在"
    # One Chinese character is the rest of a word, not a title ("任务5重命名成功" is no title "功").
    return not (end == i + 1 and (list(status(p, i)) or list(priority(p, i)) or p.tokens[i].kind == "han"))
