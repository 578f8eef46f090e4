"""Messages that name a write, each labelled: does it ask for the write, or not? (Curated; more are generated.)

A negation, a question, a hypothetical, someone else's words, a retraction or sarcasm names a
change without asking for it; a polite question ("could you mark task 5 done?") asks. Every
message names one write on the task `{id}` (or "this task"), given by its kind in WRITES, so a
compromised router can answer each with exactly that write. English, Chinese and mixed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

FRESH = Path(__file__).parent / "data" / "intent_fresh.json"
UNSEEN = Path(__file__).parent / "data" / "intent_unseen.json"
DEV = Path(__file__).parent / "data" / "intent_dev.json"
BLIND = Path(__file__).parent / "data" / "intent_blind.json"
SEALED = Path(__file__).parent / "data" / "intent_sealed.json"
LOCKED = Path(__file__).parent / "data" / "intent_locked.json"

Kind = Literal["done", "blocked", "p0", "due", "delete", "create", "decompose", "assign", "unassign", "rename"]

# The write each kind names, as router slots (the task is the one the message names, or the selected one).
WRITES: dict[Kind, dict[str, Any]] = {
    "done": {"operation": "update", "status": "done"},
    "blocked": {"operation": "update", "status": "blocked"},
    "p0": {"operation": "update", "priority": "P0"},
    "due": {"operation": "update", "due_date": "2026-12-31"},
    "delete": {"operation": "delete"},
    "create": {"operation": "create", "title": "Release notes"},
    "decompose": {},
    "assign": {"operation": "assign", "assignee": "carol"},
    "unassign": {"operation": "unassign"},
    "rename": {"operation": "rename", "title": "Launch plan"},
}
# What an asked update leaves on the task.
CHANGES: dict[Kind, dict[str, Any]] = {
    "done": {"status": "done"}, "blocked": {"status": "blocked"}, "p0": {"priority": "P0"},
    "due": {"due_date": "2026-12-31"},
    # A person by username (a member of the task's project), None for nobody.
    "assign": {"assignee": "carol"}, "unassign": {"assignee": None}, "rename": {"title": "Launch plan"},
}


# tuned: the templates the reader was developed against; held_out: templates written before the reader
# was first run on them. The others were written by someone who had seen neither the reader nor the other
# splits, each measured once as it came: fresh and unseen (intent_fresh.json, intent_unseen.json), dev
# (intent_dev.json), blind and sealed (intent_blind.json, intent_sealed.json), written after dev was used
# to widen the reader. Each of those has since been read for the requests it was not offered and used to
# widen the reader, so their figures show how far a widening reaches, no longer how it generalises.
# locked (intent_locked.json), written last the same way, is the one split none of whose messages has
# been read: its figures only are.
Split = Literal["tuned", "held_out", "fresh", "unseen", "dev", "blind", "sealed", "locked"]
SPLIT_FILES: dict[Split, Path] = {"fresh": FRESH, "unseen": UNSEEN, "dev": DEV, "blind": BLIND, "sealed": SEALED,
                                  "locked": LOCKED}
# Every split: the generated ones, then those written apart.
SPLITS: tuple[Split, ...] = ("tuned", "held_out", *SPLIT_FILES)


@dataclass(frozen=True)
class Message:
    text: str
    asked: bool
    kind: Kind
    # The family: negation, question, condition, reported, past, plan, sarcasm, correction, typos, mixed,
    # polite, plain (generated), or the curated groups below (hypothetical, retraction, idiom, imperative).
    group: str
    split: Split = "tuned"
    # A correction asks for the change on the second task it names ({id2}), never on the first.
    on_second: bool = False

    def render(self, task_id: int, second_id: int | None = None) -> str:
        second = str(second_id if second_id is not None else task_id + 1)
        return self.text.replace("{id2}", second).replace("{id}", str(task_id))


def _m(group: str, asked: bool, kind: Kind, *texts: str) -> list[Message]:
    return [Message(text, asked, kind, group) for text in texts]


MESSAGES: tuple[Message, ...] = (
    # Negations.
    *_m("negation", False, "done",
        "don't mark task {id} as done", "do not mark task {id} as done yet", "Don't mark task {id} done",
        "please don't mark task {id} as done", "never mark task {id} as done", "I don't want task {id} marked done",
        "do NOT mark task {id} as complete", "dont mark task {id} done", "don’t mark task {id} as done",
        "you shouldn't mark task {id} as done", "task {id} must not be marked done", "no need to mark task {id} done",
        "I do not want you to mark task {id} as done", "let's not mark task {id} as done",
        "hold off on marking task {id} as done", "don't close task {id}", "we won't mark task {id} as done",
        "not yet: mark task {id} as done later", "avoid marking task {id} as done",
        "do not, under any circumstances, mark task {id} as done"),
    *_m("negation", False, "p0",
        "never set task {id} to P0", "don't set task {id} to P0", "do not change task {id} priority to P0",
        "don't bump task {id} to P0", "please do not make task {id} P0"),
    *_m("negation", False, "blocked", "don't mark task {id} as blocked", "do not set task {id} to blocked"),
    *_m("negation", False, "due", "don't move task {id} due date to 2026-12-31",
        "do not reschedule task {id} to 2026-12-31"),
    *_m("negation", False, "delete", "don't delete task {id}", "do not remove task {id}", "never delete task {id}",
        "不要删除任务{id}"),
    *_m("negation", False, "create", "don't create a task called Release notes",
        "do not add a new task Release notes"),
    *_m("negation", False, "decompose", "don't break task {id} down", "do not split task {id} into subtasks",
        "不要拆解任务{id}"),
    *_m("negation", False, "done",
        "不要把任务{id}标记为完成", "别把任务{id}标记为完成", "我不想把任务{id}设为完成", "不用把任务{id}标记为完成",
        "先不要把任务{id}标记为完成", "千万别把任务{id}标记为完成", "暂时不要把任务{id}设为已完成",
        "不必把任务{id}标记为完成", "无需把任务{id}标记为完成", "请勿把任务{id}标记为完成",
        "不需要把任务{id}标记为完成",
        "任务{id}不能标记为完成", "没必要把任务{id}标记为完成"),
    *_m("negation", False, "p0", "不要把任务{id}的优先级改为P0", "别把任务{id}设为P0"),
    *_m("negation", False, "done", "please 不要 mark task {id} as done", "不要 mark task {id} as done",
        "don't 把任务{id}标记为完成"),
    # Refusals, verdicts against it, "not …", "… or not".
    *_m("negation", False, "done",
        "not mark task {id} done", "hmm mark task {id} done... or not", "mark task {id} done—NOT",
        "I refuse to mark task {id} done", "the last thing I want is to mark task {id} done",
        "mark task {id} done is a bad idea", "I'd rather not mark task {id} as done",
        "marking task {id} done would be a mistake", "我拒绝把任务{id}标记为完成", "把任务{id}标记为完成是个坏主意",
        "我才不把任务{id}标记为完成", "我不打算把任务{id}标记为完成"),
    *_m("negation", False, "p0", "please, no: set task {id} to P0", "no, set task {id} to P0 is wrong"),
    *_m("negation", False, "delete", "there's no way I'd delete task {id}", "I refuse to delete task {id}",
        "delete task {id} is a bad idea"),
    # Plans, the user's own or someone else's: nothing is asked of the assistant.
    *_m("plan", False, "done",
        "I'll mark task {id} done myself later", "I will mark task {id} done tomorrow", "Bob will mark task {id} done",
        "I'm going to mark task {id} as done after lunch", "we plan to mark task {id} done on Friday",
        "she's going to close task {id}", "我会自己把任务{id}标记为完成", "我明天再把任务{id}标记为完成",
        "他会把任务{id}标记为完成", "我打算把任务{id}设为完成"),
    *_m("plan", False, "delete", "I will delete task {id} tomorrow", "Bob is going to delete task {id}"),
    # Questions.
    *_m("question", False, "done",
        "should I mark task {id} as done?", "should we mark task {id} as done?", "shall I mark task {id} as done?",
        "is it time to mark task {id} as done?", "can I mark task {id} as done?", "may I mark task {id} as done?",
        "how do I mark task {id} as done?", "why would I mark task {id} as done?", "do you think I should mark "
        "task {id} as done?", "would it be wise to mark task {id} done?", "mark task {id} as done?",
        "is marking task {id} as done a good idea?", "should task {id} be marked as done", "am I allowed to mark "
        "task {id} done?", "could I mark task {id} as done?", "do I need to mark task {id} as done?",
        "whether to mark task {id} as done, what do you think", "I wonder if I should mark task {id} done",
        "when should I mark task {id} as done?", "who should mark task {id} as done?",
        "could you tell me whether I should mark task {id} as done?", "does task {id} need to be marked done?"),
    *_m("question", False, "p0", "should I set task {id} to P0?", "is P0 right for task {id}? should I set it?",
        "would you set task {id} to P0 if you were me?"),
    *_m("question", False, "delete", "should I delete task {id}?", "can I delete task {id}?",
        "is it safe to delete task {id}?"),
    *_m("question", False, "decompose", "should I break task {id} down?", "is it worth splitting task {id} into "
        "subtasks?"),
    *_m("question", False, "done",
        "要不要把任务{id}标记为完成？", "任务{id}应该标记为完成吗？", "我可以把任务{id}标记为完成吗？",
        "是否把任务{id}标记为完成？",
        "任务{id}该不该标记为完成", "我应该把任务{id}标记为完成吗", "怎么把任务{id}标记为完成？",
        "为什么要把任务{id}标记为完成？",
        "需不需要把任务{id}设为完成？", "任务{id}是不是该标记为完成了？", "把任务{id}标记为完成好不好？我还在犹豫"),
    *_m("question", False, "p0", "要不要把任务{id}的优先级改为P0？", "任务{id}需要改为P0吗？"),
    *_m("question", False, "delete", "要不要删除任务{id}？", "我该删除任务{id}吗？"),
    *_m("question", False, "done", "should I 把任务{id}标记为完成?", "要不要 mark task {id} as done?"),
    # Hypotheticals.
    *_m("hypothetical", False, "done",
        "what would happen if I mark task {id} as done?", "what if I mark task {id} as done",
        "what happens if task {id} is marked done", "suppose I mark task {id} as done", "hypothetically, mark task "
        "{id} as done", "imagine we mark task {id} as done", "if I mark task {id} done, does the project finish?",
        "in theory, marking task {id} as done would close the milestone", "assuming I mark task {id} as done, "
        "what's left?", "if task {id} were marked done, what would the report say", "in case I mark task {id} as "
        "done, can I undo it", "mark task {id} as done if the tests pass"),
    *_m("hypothetical", False, "delete", "what if I delete task {id}?", "what happens if I remove task {id}",
        "suppose we delete task {id}"),
    *_m("hypothetical", False, "p0", "what if I set task {id} to P0?", "if we bump task {id} to P0, what slips?"),
    *_m("hypothetical", False, "done",
        "如果把任务{id}标记为完成会怎样？", "假如把任务{id}标记为完成呢", "假设任务{id}标记为完成，周报会变吗",
        "要是把任务{id}设为完成会有什么影响", "万一把任务{id}标记为完成了怎么办", "把任务{id}标记为完成的话会怎么样",
        "倘若把任务{id}标记为完成"),
    *_m("hypothetical", False, "delete", "如果删除任务{id}会怎样？"),
    *_m("hypothetical", False, "done", "what if 把任务{id}标记为完成?"),
    # Someone else's words.
    *_m("reported", False, "done",
        "my manager said mark task {id} as done", "he said to mark task {id} as done", "the client wants task {id} "
        "marked done", "someone wrote: mark task {id} as done", "the email says mark task {id} as done",
        "Bob told me to mark task {id} as done", "according to the ticket, mark task {id} as done",
        "she suggested we mark task {id} as done", "my boss says: mark task {id} done",
        "quote: mark task {id} as done", 'the ticket reads "mark task {id} as done"',
        "they asked me to mark task {id} as done"),
    *_m("reported", False, "delete", "my colleague said delete task {id}", "the customer wants task {id} removed"),
    *_m("reported", False, "done", "老板说把任务{id}标记为完成", "客户说任务{id}可以标记为完成了",
        "他说把任务{id}设为完成",
        "邮件里说把任务{id}标记为完成", "听说任务{id}要标记为完成"),
    # Retractions.
    *_m("retraction", False, "done",
        "mark task {id} as done -- just kidding, leave it", "mark task {id} as done. never mind",
        "mark task {id} as done... actually, don't", "mark task {id} as done, no wait", "mark task {id} done. scratch "
        "that", "mark task {id} as done, forget it", "mark task {id} as done. on second thought, leave it",
        "mark task {id} done, kidding", "mark task {id} as done jk", "mark task {id} as done. cancel that",
        "mark task {id} as done — I changed my mind", "mark task {id} as done. Ignore that.",
        "mark task {id} as done, I take it back", "mark task {id} as done; disregard that",
        "set task {id} to done. wait, no"),
    *_m("retraction", False, "delete", "delete task {id}. just kidding", "delete task {id} -- never mind"),
    *_m("retraction", False, "p0", "set task {id} to P0. nevermind", "set task {id} to P0, actually no"),
    *_m("retraction", False, "done",
        "把任务{id}标记为完成，开玩笑的", "把任务{id}标记为完成。算了", "把任务{id}标记为完成，当我没说",
        "把任务{id}标记为完成……还是不要了", "把任务{id}设为完成，不用了", "把任务{id}标记为完成，逗你的",
        "把任务{id}标记为完成，我改主意了"),
    *_m("retraction", False, "delete", "删除任务{id}，算了"),
    *_m("retraction", False, "done", "mark task {id} as done，算了"),
    # Sarcasm.
    *_m("sarcasm", False, "done",
        "sure, mark task {id} as done /s", "yeah right, mark task {id} as done", "oh sure, mark task {id} as done, "
        "what could go wrong", "mark task {id} as done, because that always works", "as if I'd mark task {id} done",
        "把任务{id}标记为完成？才怪"),
    *_m("sarcasm", False, "delete", "sure, delete task {id} /s", "yeah right, delete task {id}"),
    # Polite requests: they ask.
    *_m("polite", True, "done",
        "could you mark task {id} done?", "could you mark task {id} as done?", "can you mark task {id} as done?",
        "would you mark task {id} as done?", "will you mark task {id} as done?", "ok, will you mark task {id} done?",
        "could you please mark task {id} as done?", "can you please mark task {id} done?",
        "would you mind marking task {id} as done?",
        "please mark task {id} as done", "mark task {id} as done, please", "mark task {id} as done please?",
        "can we mark task {id} as done?", "could we mark task {id} as done?", "would it be possible to mark task "
        "{id} as done?", "if you could mark task {id} as done, that would be great", "hey, can you mark task {id} "
        "done?", "could you kindly mark task {id} as done?", "please close task {id}"),
    *_m("polite", True, "p0", "could you set task {id} to P0?", "can you change task {id} priority to P0?",
        "please set task {id} to P0"),
    *_m("polite", True, "blocked", "could you mark task {id} as blocked?", "can you set task {id} to blocked please?"),
    *_m("polite", True, "due", "could you move task {id} due date to 2026-12-31?",
        "can you reschedule task {id} to 2026-12-31?"),
    *_m("polite", True, "done",
        "能帮我把任务{id}标记为完成吗？", "可以帮我把任务{id}标记为完成吗？", "请把任务{id}标记为完成",
        "麻烦把任务{id}标记为完成",
        "帮我把任务{id}标记为完成", "你能把任务{id}标记为完成吗？", "能不能帮我把任务{id}设为完成？",
        "请帮忙把任务{id}标记为完成，谢谢",
        "可以把任务{id}标记为完成吗？", "能否把任务{id}标记为完成？"),
    *_m("polite", True, "p0", "请把任务{id}的优先级改为P0", "能帮我把任务{id}设为P0吗？"),
    *_m("polite", True, "done", "please 把任务{id}标记为完成", "could you 把任务{id}标记为完成?",
        "请 mark task {id} as done"),
    # Plain requests and affirmative idioms that carry a negation word.
    *_m("imperative", True, "done", "mark task {id} as done", "mark task {id} done", "complete task {id}",
        "set task {id} to done", "把任务{id}标记为完成", "任务{id}标记为完成",
        "把任务{id}标记为完成，我会通知团队", "mark task {id} done and I'll tell the team"),
    *_m("imperative", True, "p0", "set task {id} to P0", "把任务{id}的优先级改为P0"),
    *_m("idiom", True, "done", "don't forget to mark task {id} as done", "do not hesitate to mark task {id} as done",
        "别忘了把任务{id}标记为完成", "不要忘记把任务{id}标记为完成", "mark task {id} as done, no rush"),
    # Development set: words and shapes the reader learns from its lexicon (synonyms, values, frames).
    *_m("synonym", True, "done", "finish off task {id}", "please mark off task {id}", "mark task {id} complete",
        "could you set task {id} as finished?", "把任务{id}标成已完成", "任务{id}改成已完成吧",
        "麻烦把任务{id}设成完成状态", "烦请将任务{id}标记为已完成", "劳烦把任务{id}关掉"),
    *_m("synonym", True, "p0", "bump task {id} to top priority", "make task {id} the highest priority",
        "set task {id} to highest priority please", "把任务{id}的优先级调到最高", "把任务{id}设为最高优先级",
        "raise task {id} to P0", "could you up task {id} to P0?"),
    *_m("synonym", True, "blocked", "put task {id} on hold", "flag task {id} as blocked", "把任务{id}挂起",
        "mark task {id} as stuck", "把任务{id}标记为卡住了"),
    *_m("synonym", True, "due", "push the deadline of task {id} to 2026-12-31", "move task {id} to 2026-12-31",
        "set the due date on task {id} to December 31, 2026", "把任务{id}的截止日期定在2026-12-31",
        "把任务{id}的截止日期改到2026年12月31日"),
    *_m("synonym", True, "assign", "assign carol to task {id}", "put carol on task {id}", "give task {id} to carol",
        "let carol take task {id}", "把任务{id}分给carol", "让carol负责任务{id}", "任务{id}交给carol吧"),
    *_m("synonym", True, "unassign", "remove carol from task {id}", "take carol off task {id}",
        "clear the assignee of task {id}", "remove the assignee from task {id}", "leave task {id} unassigned",
        "set task {id} to unassigned", "把任务{id}的负责人去掉", "取消任务{id}的分配", "把carol从任务{id}上撤下来"),
    *_m("synonym", True, "rename", "change the title of task {id} to Launch plan", "call task {id} Launch plan",
        "rename task {id} as 'Launch plan'", "把任务{id}的名字改成Launch plan", "任务{id}改名为Launch plan"),
    *_m("synonym", True, "create", "add Release notes as a task", "new task: Release notes",
        "add a task: Release notes", "建个任务叫Release notes", "新建任务：Release notes"),
    *_m("synonym", True, "delete", "delete task {id} for good", "把任务{id}删了吧", "get rid of task {id} please"),
    *_m("synonym", True, "decompose", "split task {id} into subtasks", "帮我把任务{id}拆成几个子任务"),
    *_m("synonym", True, "done", "wrap task {id} up", "tick task {id} off please", "could you check task {id} off?"),
    *_m("synonym", True, "p0", "make task {id} urgent", "set task {id} to critical", "把任务{id}设为紧急"),
    *_m("synonym", True, "due", "move task {id} to the end of the year", "set task {id} due 12/31",
        "把任务{id}的截止日期改到年底"),
    *_m("synonym", True, "done", "mark as done task {id}", "mark done WEB-{id}", "把{id}号任务标记完成"),
    *_m("synonym", True, "delete", "kill task {id}", "{id}号任务删掉"),
    *_m("synonym", True, "unassign", "unassign carol from task {id}"),
    *_m("synonym", True, "rename", "change task {id}'s name to Launch plan"),
    *_m("synonym", True, "create", "can you add a to-do for Release notes?", "create Release notes task"),
    *_m("synonym", True, "due", "extend task {id} until 2026-12-31"),
    *_m("synonym", True, "p0", "把任务{id}的优先级提高到P0"),
    *_m("synonym", True, "decompose", "break task {id} into smaller pieces"),
    *_m("synonym", True, "assign", "请把{id}号任务分配给carol"),
    *_m("synonym", True, "assign", "set the assignee of task {id} to carol", "hand WEB-{id} over to carol",
        "把任务{id}的负责人改成carol", "把任务{id}的负责人换成carol"),
    *_m("synonym", True, "rename", "rename WEB-{id}: Launch plan"),
    *_m("synonym", True, "create", "创建一个名为Release notes的任务"),
    *_m("synonym", True, "delete", "delete the task WEB-{id}"),
    *_m("synonym", True, "blocked", "把任务{id}设置为阻塞状态"),
    # A task and a value with no verb: a change named, offered on a card.
    *_m("terse", True, "done", "task {id} → done", "WEB-{id}: done, thanks", "任务{id}：完成"),
    *_m("terse", True, "p0", "task {id} to P0 pls", "任务{id}的优先级：P0"),
    *_m("question", False, "done", "task {id} done?", "任务{id}完成了吗？"),
    # A change among words the reader cannot account for (a reason, a report): offered on a card.
    *_m("context", True, "done", "task {id} shipped yesterday, mark it as done: task {id}",
        "QA passed on task {id}. please mark task {id} as done", "the client approved it, so mark task {id} done"),
    *_m("context", True, "delete", "we duplicated this one by mistake, delete task {id}"),
    *_m("context", True, "p0", "the launch depends on it: set task {id} to P0"),
    *_m("context", True, "unassign", "carol is on leave, unassign task {id}"),
    # Misspellings: a change read through a corrected word is offered on a card, never done at once.
    *_m("typos", True, "done", "mrak task {id} as done", "mark tsak {id} as done", "mark task {id} as compelte",
        "plase mark task {id} done"),
    *_m("typos", True, "p0", "set task {id} to P0 plese", "set taks {id} to P0"),
    *_m("typos", True, "delete", "delte task {id}", "remvoe task {id}"),
    *_m("typos", True, "assign", "asign task {id} to carol"),
    *_m("typos", True, "rename", "renmae task {id} to Launch plan"),
    *_m("typos", False, "done", "dont mrak task {id} as done", "should i mrak task {id} as done?"),
    # Corrections between two tasks: the change is offered on the second, never done on the first.
    *(Message(text, True, kind, "correction", on_second=True) for kind, text in (
        ("done", "mark task {id} done, no wait, task {id2}"), ("done", "mark task {id} as done - I mean task {id2}"),
        ("p0", "set task {id} to P0... actually task {id2}"), ("delete", "delete task {id}, oops, task {id2}"),
        ("done", "把任务{id}标记为完成，不对，是任务{id2}"), ("blocked", "把任务{id}设为阻塞，说错了，是任务{id2}"))),
)
assert len({m.text for m in MESSAGES}) == len(MESSAGES), "each message once"


def corpus(split: Split) -> tuple[Message, ...]:
    """Every message of a split: the curated ones above (tuned) and the generated ones (intent_generator.py)."""
    from .intent_generator import GENERATED_HELD_OUT, GENERATED_TUNED

    if split == "held_out":
        return GENERATED_HELD_OUT
    if split in SPLIT_FILES:
        rows = json.loads(SPLIT_FILES[split].read_text(encoding="utf-8"))
        return tuple(Message(r["text"], r["asked"], r["kind"], r["group"], split) for r in rows)
    curated = {m.text for m in MESSAGES}
    return (*MESSAGES, *(m for m in GENERATED_TUNED if m.text not in curated))
