"""Generated messages that name a write, each labelled: does it ask for it, and on which task?

Families (negation, question, condition, reported speech, past statement, another person's plan,
sarcasm, correction, typos, mixed language, polite requests, plain requests) × phrasing templates
× writes × targets × languages. Each family's templates come in two splits: ``tuned`` (the reader
was developed against them) and ``held_out`` (written before the reader was run on them, and never
used to change it). The figures of both are printed by bench/intent_corpus.py.

A template holds one change, in the form its frame needs: ``{imp}`` ("mark task 5 as done"),
``{ing}`` ("marking task 5 as done"), ``{past}`` ("marked task 5 as done"), ``{pp}`` with ``{t}``
("task 5" … "marked as done"), or ``{zh}`` ("把任务5标记为完成"). A correction names a second
task, ``{t2}`` / ``{zt2}``: it asks for the change on that one, never on the first.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import cycle, islice
from typing import Literal

from .intent_corpus import Kind, Message, Split

Family = Literal["plain", "polite", "negation", "question", "condition", "reported", "past", "plan", "sarcasm",
                 "correction", "typos", "mixed"]


@dataclass(frozen=True)
class Change:
    """One write in each form a template may need; {t} is the task in English, {zt} in Chinese."""

    imp: tuple[str, ...]
    ing: tuple[str, ...]
    past: tuple[str, ...]
    pp: tuple[str, ...]
    zh: tuple[str, ...]


CHANGES: dict[Kind, Change] = {
    "done": Change(("mark {t} as done", "mark {t} done", "set {t} to done", "close {t}", "complete {t}"),
                   ("marking {t} as done", "marking {t} done", "closing {t}"),
                   ("marked {t} as done", "marked {t} done", "closed {t}"),
                   ("marked as done", "marked done", "closed"),
                   ("把{zt}标记为完成", "把{zt}设为已完成", "把{zt}标记为已完成")),
    "blocked": Change(("mark {t} as blocked", "set {t} to blocked", "set the status of {t} to blocked"),
                      ("marking {t} as blocked", "setting {t} to blocked"),
                      ("marked {t} as blocked", "set {t} to blocked"),
                      ("marked as blocked", "set to blocked"),
                      ("把{zt}标记为阻塞", "把{zt}的状态改为阻塞")),
    "p0": Change(("set {t} to P0", "change the priority of {t} to P0", "bump {t} to P0", "make {t} P0"),
                 ("setting {t} to P0", "bumping {t} to P0"),
                 ("set {t} to P0", "bumped {t} to P0"),
                 ("set to P0", "bumped to P0"),
                 ("把{zt}的优先级改为P0", "把{zt}设为P0")),
    "due": Change(("set the due date of {t} to 2026-12-31", "move {t} to 2026-12-31", "reschedule {t} to 2026-12-31"),
                  ("moving {t} to 2026-12-31", "rescheduling {t} to 2026-12-31"),
                  ("moved {t} to 2026-12-31", "rescheduled {t} to 2026-12-31"),
                  ("moved to 2026-12-31", "rescheduled to 2026-12-31"),
                  ("把{zt}的截止日期改为2026-12-31", "把{zt}推迟到2026-12-31")),
    "delete": Change(("delete {t}", "remove {t}"), ("deleting {t}", "removing {t}"), ("deleted {t}", "removed {t}"),
                     ("deleted", "removed"), ("删除{zt}", "把{zt}删掉", "把{zt}删除")),
    "decompose": Change(("break {t} down", "break down {t}", "split {t} into subtasks"),
                        ("breaking {t} down", "splitting {t} into subtasks"),
                        ("broke {t} down", "split {t} into subtasks"),
                        ("broken down", "split into subtasks"),
                        ("把{zt}拆解一下", "拆分{zt}", "把{zt}拆成子任务")),
    "create": Change(("create a task called Release notes", "add a task named Release notes"),
                     ("creating a task called Release notes", "adding a task named Release notes"),
                     ("created a task called Release notes", "added a task named Release notes"),
                     (), ("创建一个任务叫Release notes", "新建任务“Release notes”")),
}
# Writes only the tuned split holds: added after the held-out split was measured, so its messages (and
# figures) stay the ones it had.
TUNED_ONLY: dict[Kind, Change] = {
    "assign": Change(("assign {t} to carol", "give {t} to carol", "reassign {t} to carol"),
                     ("assigning {t} to carol", "reassigning {t} to carol"),
                     ("assigned {t} to carol", "gave {t} to carol"),
                     (), ("把{zt}分配给carol", "把{zt}交给carol", "把{zt}指派给carol")),
    "unassign": Change(("unassign {t}",), ("unassigning {t}",), ("unassigned {t}",), (),
                       ("把{zt}取消分配", "把{zt}取消指派")),
    "rename": Change(("rename {t} to Launch plan", "retitle {t} to Launch plan"),
                     ("renaming {t} to Launch plan",), ("renamed {t} to Launch plan",), (),
                     ("把{zt}改名为Launch plan", "把{zt}重命名为Launch plan", "把{zt}的标题改为Launch plan")),
}
TARGETS_EN = ("task {id}", "WEB-{id}", "#{id}")
TARGETS_ZH = ("任务{id}", "WEB-{id}", "任务#{id}")

# (family, asked, templates). "asked" is whether the message asks for the write (on {t2} for a correction).
Templates = tuple[tuple[Family, bool, tuple[str, ...]], ...]

TUNED: Templates = (
    ("plain", True, ("{imp}", "{imp}.", "ok, {imp}", "{imp} now", "{zh}", "{zh}。")),
    ("polite", True, ("please {imp}", "{imp}, please", "could you {imp}?", "can you please {imp}?",
                      "would you mind {ing}?", "when you get a chance, {imp}.", "hey, could you {imp}? thanks",
                      "请{zh}", "帮我{zh}", "{zh}好吗", "能帮我{zh}吗？", "麻烦{zh}，谢谢", "请{zh}好吗")),
    ("negation", False, ("don't {imp}", "do not {imp}", "never {imp}", "please don't {imp}", "we're not {ing}",
                         "I'd prefer you didn't {imp}", "skip {ing}", "不要{zh}", "别{zh}", "用不着{zh}", "不用{zh}")),
    ("question", False, ("should I {imp}?", "can I {imp}?", "is it ok to {imp}?", "why would we {imp}?",
                         "要不要{zh}？", "我应该{zh}吗？")),
    ("condition", False, ("once QA signs off, {imp}", "if the tests pass, {imp}", "{imp} if the client agrees",
                          "等客户确认后再{zh}", "如果测试通过就{zh}")),
    ("reported", False, ("my manager said {imp}", "the customer keeps asking us to {imp}", "Bob told me to {imp}",
                         "产品经理让我{zh}", "老板说{zh}")),
    ("past", False, ("I already {past}", "I {past} yesterday", "we {past} last week", "我已经{zh}了", "昨天我{zh}了")),
    ("plan", False, ("Bob will {imp}", "carol is going to {imp} tomorrow", "I'll {imp} myself", "小王会{zh}",
                     "他打算{zh}")),
    ("sarcasm", False, ("oh sure, {imp}, what could go wrong", "yeah right, {imp} 🙄", "{zh}？才怪")),
    ("correction", True, ("{imp}, sorry I meant {t2}", "{imp}, I mean {t2}", "{zh}，不对，是{zt2}")),
    ("typos", True, ("plz {imp}", "pls {imp} thx", "{imp} pls")),
    ("typos", False, ("dont {imp}", "do'nt {imp}", "pls dont {imp}")),
    ("mixed", True, ("please {zh}", "could you {zh}?", "请 {imp}", "帮我 {imp}")),
    ("mixed", False, ("不要 {imp}", "don't {zh}", "别 {imp}")),
)

HELD_OUT: Templates = (
    ("plain", True, ("go ahead and {imp}", "{imp} for me", "{imp}!", "{zh}吧")),
    ("polite", True, ("I'd appreciate it if you {past}.", "would you be so kind as to {imp}?",
                      "if you have a minute, {imp}", "{imp} when you can, thanks", "Can {t} be {pp}, please?",
                      "劳驾{zh}", "有空的时候{zh}", "请你{zh}，谢谢")),
    ("negation", False, ("I'd rather you didn't {imp}", "please refrain from {ing}", "there's no need to {imp}",
                         "we won't be {ing}", "千万不要{zh}", "没必要{zh}")),
    ("question", False, ("do you think we should {imp}?", "would it make sense to {imp}?",
                         "any reason not to {imp}?", "是不是应该{zh}？", "现在{zh}合适吗？")),
    ("condition", False, ("when the build is green, {imp}", "{imp} after the review", "unless someone objects, {imp}",
                          "如果老板同意，{zh}", "评审通过后{zh}")),
    ("reported", False, ("carol asked me to {imp}", "the ticket says to {imp}", "客户希望我们{zh}", "同事让我{zh}")),
    ("past", False, ("{t} was already {pp}", "we {past} on Monday", "我刚才{zh}了", "上周已经{zh}了")),
    ("plan", False, ("I'm planning to {imp} tomorrow", "dave wants to {imp} later", "我们下周{zh}", "他准备{zh}")),
    ("sarcasm", False, ("great idea, let's just {imp} and hope for the best 🙃",
                        "sure, {imp}, nothing could possibly break", "{zh}，好主意呢，呵呵")),
    ("correction", True, ("{imp}, no wait, I mean {t2}", "{imp} — correction: {t2}", "{zh}，说错了，是{zt2}")),
    ("typos", True, ("pleas {imp}", "culd you {imp}?")),
    ("typos", False, ("dnt {imp}", "do not evr {imp}")),
    ("mixed", True, ("麻烦 {imp}", "please 帮我{zh}")),
    ("mixed", False, ("不要 {imp} please", "never {zh}")),
)


def _forms(template: str, change: Change) -> tuple[str, ...]:
    if "{zh}" in template:
        return change.zh
    for form in ("ing", "past", "pp"):
        if "{" + form + "}" in template:
            return getattr(change, form)
    return change.imp


def _render(template: str, form: str, target: int) -> str:
    """One message: the form put in the template, with a target in the message's language."""
    en, zh = TARGETS_EN[target % len(TARGETS_EN)], TARGETS_ZH[target % len(TARGETS_ZH)]
    change = form.replace("{t}", en).replace("{zt}", zh)
    key = next(k for k in ("imp", "ing", "past", "pp", "zh") if "{" + k + "}" in template)
    text = template.replace("{" + key + "}", change).replace("{t}", en)
    return text.replace("{t2}", en.replace("{id}", "{id2}")).replace("{zt2}", zh.replace("{id}", "{id2}"))


def generate(templates: Templates, split: Split, changes: dict[Kind, Change] = CHANGES) -> tuple[Message, ...]:
    """Every template × every write it can hold × each target, the write's phrasings taken in turn."""
    messages: dict[str, Message] = {}
    for family, asked, texts in templates:
        for template in texts:
            for kind, change in changes.items():
                forms = _forms(template, change)
                if not forms or ("{t2}" in template or "{zt2}" in template or "{pp}" in template) and kind == "create":
                    continue
                for target, form in enumerate(islice(cycle(forms), len(TARGETS_EN))):
                    text = _render(template, form, target)
                    messages.setdefault(text, Message(text, asked, kind, family, split,
                                                      on_second="{id2}" in text))
    return tuple(messages.values())


GENERATED_TUNED = generate(TUNED, "tuned", {**CHANGES, **TUNED_ONLY})
GENERATED_HELD_OUT = generate(HELD_OUT, "held_out")
