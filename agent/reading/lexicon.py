"""The reader's lexicon: its own words (courtesy, request frames, values, targets) and each capability's phrases.

Every phrase is declared here or in a capability's phrases.py (agent.registry.PHRASES) and nowhere
else. A class holds English and Chinese phrases alike (a phrase is a sequence of tokens,
agent/reading/tokens.py). English verbs are declared in their plain form; ``forms`` gives their -ing,
past and past-participle forms, so a frame that needs one ("would you mind marking …", "I'd
appreciate it if you marked …", "can it be marked …") reads the same verbs.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType

from agent.registry import PHRASES

from .clauses import ASIDES, CLAUSE, CORRECTION_MARKS, CORRECTIONS, LAUGHTER
from .dates import MONTH_WORDS, WEEKDAYS
from .query_words import DUE_RANGES, RANGE, READS
from .tokens import phrase_tokens

# The closed set of words a request may hold besides its change: courtesy and filler. Not "urgent" or "紧急":
# they may be a priority ("add a task called Fix login - urgent").
COURTESY = ("please", "pls", "plz", "kindly", "just", "thanks", "thank you", "thanks a lot", "many thanks", "thx",
            "ty", "cheers", "hey", "hi", "hello", "ok", "okay", "alright", "so", "now", "right now", "quickly",
            "asap", "for me", "no rush", "good morning", "good afternoon", "good evening", "hi there", "hey there",
            "你好", "您好", "早上好", "下午好", "when you get a chance", "when you have a moment", "when you can",
            "if you can", "if you could", "if you don't mind", "that would be great", "that'd be great",
            "would be great", "right away", "real quick", "then", "also", "and",
            "请", "谢谢", "谢谢你", "谢谢了", "多谢", "麻烦了", "辛苦了", "劳驾", "一下", "哈", "啦", "呗", "吧", "哦",
            "嗯", "好的", "那个", "现在", "马上", "赶紧", "顺便", "辛苦", "辛苦你")
# Request frames before the change, by the form of the verb they take; "ask" frames may end in "?".
FRAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "plain": ("please", "go ahead and", "don't forget to", "do not forget to", "remember to", "make sure to",
              "别忘了", "不要忘了", "不要忘记", "别忘记", "记得",
              "i need you to", "i'd like you to", "i would like you to", "i want you to",
              "let's", "lets", "help me", "can you help me", "could you help me", "please help me",
              "请", "请你", "请您", "麻烦", "麻烦你", "麻烦您", "帮我", "帮忙", "请帮我", "请帮忙", "麻烦帮我",
              "麻烦你帮我", "你帮我", "帮我们", "给我", "烦请", "劳烦", "劳驾", "请协助", "麻烦帮忙"),
    "ask": ("could you", "can you", "would you", "will you", "could u", "can u", "would u", "will u",
            "could you please", "can you please",
            "would you please", "will you please", "could you kindly", "can you kindly", "can we", "could we",
            "would it be possible to", "would it be possible for you to", "would you be so kind as to",
            "could you be so kind as to", "would you kindly", "is it possible to",
            "is it possible for you to", "do you think you could", "any chance you could",
            "能不能", "能不能帮我", "可不可以", "可不可以帮我", "可以", "可以帮我", "能", "能帮我", "你能",
            "你能帮我", "你可以", "你可以帮我", "能否", "能否帮我", "可否", "可否帮我", "您能", "您可以", "您能帮我"),
    "ing": ("would you mind", "do you mind", "would you mind please", "mind"),
    # "can WEB-5 be marked as done?" asks; "will task 5 be deleted?" asks what will happen, not for it.
    "passive": ("can", "could"),
    "past": ("i'd appreciate it if you", "i would appreciate it if you", "it would be great if you",
             "it'd be great if you", "i'd be grateful if you", "i would be grateful if you"),
})
# What may close a request; "ask" ones only after an "ask" frame, or as its own question of consent.
CLOSERS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "plain": ("please", "thanks", "thank you", "thx", "pls", "plz", "for me", "asap", "when you can", "instead",
              "when you get a chance", "if you can", "if you could", "if you don't mind", "no rush",
              "谢谢", "谢谢你", "谢谢了", "多谢", "吧", "一下", "哈", "啦", "呗", "嘛", "呀", "就行", "就好", "就可以",
              "即可", "辛苦啦", "谢啦", "啊", "呐", "嗷", "咯", "嘞", "噢", "捏", "when you get a sec",
              "when you get a minute",
              "when you have a sec", "when you have a minute"),
    "ask": ("好吗", "好不好", "可以吗", "行吗", "行不行", "成吗", "好么", "行么", "可以么", "可以不", "ok", "okay",
            "ok?", "alright"),
    "question": ("吗",),
})
# Moods the grammar reads whole: a frame that negates or questions the change it holds.
NOT_ASKED: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "negated": ("don't", "dont", "do not", "never", "please don't", "please do not", "let's not", "no need to",
                "you don't need to", "don't bother to", "we don't need to", "you shouldn't", "we shouldn't",
                "不要", "别", "不用", "不必", "无需", "无须", "请勿", "千万不要", "千万别", "先不要", "暂时不要",
                "不需要",
                "请不要", "请别"),
    "negated_ing": ("stop", "avoid", "no", "skip", "never mind", "nevermind"),
    # Taken back right after the request: "delete task 5, just kidding", "把任务5删了，开玩笑的". ("算了" and
    # "不用了" are not here: "删了算了" is "just delete it", "…，不用了" may give the reason.)
    "kidding": ("just kidding", "jk", "kidding", "开玩笑的", "开个玩笑"),
    # Only after a mark: "delete task 5, never mind"; but "delete task 5 and forget it" asks.
    "retracted": ("never mind", "nevermind", "scratch that", "forget it", "forget that", "ignore that", "当我没说"),
    "question": ("should i", "should we", "shall i", "shall we", "can i", "could i", "may i", "do i need to",
                 "do we need to", "is it ok to", "is it okay to", "is it safe to", "is it wise to", "how do i",
                 "how can i", "why would i", "why would we", "why should i", "why should we",
                 "要不要", "我应该", "我该", "我可以", "我能", "需不需要", "该不该", "应不应该", "是否", "是否要",
                 "是否需要", "我们应该", "我们要不要", "为什么要", "怎么"),
})
# What makes a message a question for information: the word it opens with ("who deleted task 5?", "what's
# blocking task 5"), or a Chinese one anywhere ("任务5的负责人是谁"). Put to no one (no word that asks the
# assistant for something), it names no change: it is answered, never offered on a card
# (reader._asks_nothing). A yes-no question may be a request ("can WEB-5 be closed?", "mark it done?"),
# and "how" opens suggestions ("how about closing it"): neither is here.
QUESTIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # A question for information, or about what was done ("did you delete task 5?", "was task 5 deleted").
    "opens": ("what", "what's", "whats", "who", "who's", "whose", "which", "when", "why", "where", "did", "was",
              "were", "has", "have", "had"),
    "marks": ("谁", "什么", "为什么", "哪个", "哪些", "哪里", "多少"),
})
# Values.
STATUSES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "done": ("done", "complete", "completed", "finished", "closed", "resolved", "完成", "已完成", "做完", "完成状态",
             "已关闭", "关闭"),
    "in_progress": ("in progress", "in-progress", "started", "doing", "underway", "进行中", "处理中", "开始",
                    "在进行中", "正在做", "正在进行", "在做"),
    "blocked": ("blocked", "stuck", "on hold", "阻塞", "受阻", "卡住", "被阻塞", "阻塞中", "挂起", "阻塞状态", "被卡住",
                "卡着"),
    "todo": ("todo", "to do", "to-do", "not started", "待办", "未开始", "待处理", "not started yet", "not yet started",
             "haven't been started", "hasn't been started", "haven't started", "hasn't started", "还没开始", "没开始",
             "没有开始", "尚未开始"),
})
# Priorities in words: the highest is P0, the lowest P3 ("bump it to top priority", "调到最高").
PRIORITIES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    # Not "top" alone: "move task 5 to top", "put it on top" order a list, they set no priority.
    "P0": ("top priority", "the top priority", "highest priority", "the highest priority", "highest",
           "urgent", "critical", "最高优先级", "最高", "最高级", "最优先", "紧急", "top-priority", "top prio"),
    "P1": ("high priority", "high", "高优先级", "高", "high-priority", "high prio"),
    "P2": ("medium priority", "normal priority", "medium", "normal", "中优先级", "中等", "普通", "medium-priority",
           "medium prio", "优先级为中", "优先级是中"),
    "P3": ("lowest priority", "the lowest priority", "lowest", "low priority", "low", "最低优先级", "最低", "最低级",
           "低优先级", "低", "low-priority", "low prio"),
})
FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "status": ("status", "state", "状态"),
    "priority": ("priority", "优先级", "级别"),
    "due_date": ("due date", "due", "deadline", "due-date", "date", "截止日期", "截止时间", "到期日", "到期时间",
                 "期限",
                 "截止日", "日期"),
    "title": ("title", "name", "标题", "名称", "名字"),
    # Set like a value, read as a person: "set the assignee of task 5 to carol", "把任务5的负责人改成carol".
    "assignee": ("assignee", "owner", "负责人", "执行人", "指派人"),
})
# Around a person in an assignment: "assign carol to task 5", "take carol off task 5", "让carol负责任务5",
# "clear the assignee of task 5", "leave task 5 unassigned".
PERSON: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "onto": ("to", "on", "onto"),
    "off": ("off", "from", "off of"),
    "let": ("let", "have", "让", "由"),
    "take": ("take", "handle", "own", "have", "take over", "负责", "处理", "接手", "跟进", "来做", "来负责"),
    "assignee": ("assignee", "the assignee", "owner", "the owner", "assignment", "负责人", "分配", "指派", "执行人",
                 "指派人",
                 "whoever's assigned", "whoever is assigned", "whoever's on", "whoever is on", "the person assigned"),
    "nobody": ("unassigned", "nobody", "no one", "no-one", "无人", "没人", "未分配", "无人负责", "没人负责",
               "no assignee", "no owner", "没有负责人", "无负责人", "待认领", "未分配状态", "无人负责的状态"),
    "zh_off": ("上", "里", "中"),
})
# Words that name no one person and no project: pronouns, everyone and no one, days and months, a team.
NOT_NAMES = frozenset({
    "i", "me", "you", "him", "her", "us", "them", "it", "we", "they", "someone", "somebody", "anyone", "anybody",
    "everyone", "everybody", "nobody", "nothing", "anything", "everything", "something", "all", "team", "the",
    "today", "tomorrow", "yesterday", "tonight", "now", "later", "soon", "week", "month", "year", "weekend", "q1",
    "q2", "q3", "q4", "next", "this", "last", "except", "not", "without", "but", "or", "and", "too", "also",
    "lately", "recently", "whoever", "yourself", "themselves", "mine", "yours", "hers", "his", "ours", "theirs",
    *WEEKDAYS,
    *(MONTH_WORDS - {"may"})})  # "may" is a name as often as a month
# Words that stand for a person named before them ("carol is free, assign it to her": reading/people.py).
PRONOUNS = frozenset({"her", "him", "她", "他"})
# Tasks a change may name without a number.
TARGETS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "selected": ("this task", "this one", "it", "this", "the selected task", "the current task", "that task",
                 "the task", "这个任务", "该任务", "此任务",
                 "this ticket", "that ticket", "this item", "这个task", "这个ticket", "该task", "此task", "这条任务",
                 "当前任务", "这项任务", "它", "这个", "本任务"),
    # The page's task as the owner of a field that follows ("this task's due date", "its priority"): a
    # change pieced together (gather.py) takes it only before a field's name ("its blocker" is another task).
    "selected_of": ("this task's", "this one's", "that task's", "this ticket's", "its"),
    # Among those, the ones that name no task in particular, or need a word after them to ("this week",
    # "这个月"): a change pieced together (gather.py) needs a task it names.
    "vague": ("the task", "any task", "a task", "任何任务", "某个任务", "this", "这个"),
    # A task of no one's choosing: "don't delete any task" is read (negated), "delete a task" asks for nothing.
    "any": ("any task", "a task", "任何任务", "某个任务"),
    "visible": ("these tasks", "these", "all these tasks", "all of these", "all visible tasks", "the visible tasks",
                "all the visible tasks", "all of them", "them", "all tasks shown", "every task", "all tasks",
                "all the tasks", "every visible task", "visible tasks", "这些任务", "这些", "所有可见任务",
                "可见任务", "全部可见任务", "这些任务都", "所有这些任务"),
})
# Small words of the grammar's rules.
GLUE: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "to": ("to", "as", "into", "at", "until", "till", "for", "on", "a", "an"),
    # Before a priority only ("bump task 5 up to P0"): "leave it up to carol" hands nothing over.
    "up_to": ("up to", "all the way up to"),
    "of": ("of", "for", "on"),
    "the": ("the",),
    "a": ("a", "an", "one", "another", "a new", "new", "an new"),
    "task": ("task", "todo", "to-do", "item", "ticket", "the task", "the ticket"),
    # "for" only before a name-like title: "add a to-do for Release notes", never "for carol", "for Friday".
    "called": ("called", "named", "titled", "with the title", "with title", ":", "-", "to", "for", "about"),
    # Words that make no title alone: "create a new task", "start the next task", "add another task".
    "no_title": ("a", "an", "the", "new", "another", "next", "first", "last", "latest", "one", "more", "other",
                 "same", "this", "that", "some", "any", "it", "them", "me", "him", "her", "us", "you", "one more"),
    "be": ("be", "get"),
    "due": ("due", "due on", "due by", "by", "deadline", "截止", "截止日期", "截止于", "到期", "截至"),
    "with": ("with", "and", ",", "at"),
    "assignee_to": ("to",),
    # Between a task and a value with no verb ("WEB-5 → done", "task 5: P0", "任务5：完成"): named, never asked.
    "verbless": ("to", "as", ":", "→", "->", "=", "-", "is", "is now", "now", "为", "改为", "设为"),
    # Words that need one after them: an unquoted title never ends on one (parts.title).
    "open": ("the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "his", "her", "their", "its",
             "of", "to", "for", "with", "and", "or", "in", "on", "at", "by", "from", "into", "的", "把", "给", "将"),
    "as_task": ("as a task", "as a new task", "as task", "as a todo", "as a to-do", "as a ticket", "as an item",
                "task"),
    # What comes between a renamed task and its new title: "to", or in a mixed message the Chinese "为"
    # ("rename 任务5 为 Launch plan"), never a word of the new title.
    "rename_to": ("to", "as", "into", ":", "→", "->", "为", "成", "作"),
    "me": ("me", "myself"),
    # Chinese.
    "ba": ("把", "将"),
    "zh_give": ("给",),
    # Between a Chinese task and its verb: "任务5先标记为完成", "这个任务直接帮我删了", "名字给改成X".
    "zh_adverb": ("先", "直接", "就", "也", "暂时", "马上", "立刻", "赶紧", "帮我", "给我", "帮忙", "麻烦", "请", "给"),
    "zh_to": ("到", "成", "为"),
    # After a number, what makes it a count, not a task ("3 tasks", "2天").
    "unit": ("tasks", "items", "tickets", "days", "weeks", "hours", "minutes", "months", "of", "个", "天", "周",
             "号", "月", "年", "小时", "条", "%"),
    "as": ("as",),
    "de": ("的",),
    "yige": ("一个", "个", "一条", "条", "新", "一个新", "个新"),
    "zh_task": ("任务", "待办", "task", "ticket"),
    "zh_called": ("叫", "叫做", "名为", "名叫", "标题为", "标题是", "名称为", "名称是", "内容为", "内容是", "，", ":",
                  "：", "为", "标题叫", "名字叫", "名字就叫", "，标题是", "，标题为", "，标题叫", "，名字叫",
                  "，名字就叫", "，标题：", "，名为", "，名称是", "叫作", "，叫做", "，叫作",
                  "就叫做", "，就叫做"),
    # The name a task is given, in Chinese: "就叫Launch plan", "以后叫Launch plan" (a change pieced together).
    "zh_named": ("叫", "叫做", "名为", "名叫"),
    "zh_me": ("我", "我自己"),
    # A new task named with no verb ('+task "Release notes"', "新任务：X"): offered, never asked.
    "new_task": ("+task", "+ task", "+ a task", "➕ task", "new task", "a new task", "新任务", "新的任务"),
    "new_task_mark": (":", "→", "->", "="),
    "le": ("了",),
    "zh_from": ("从",),
    # After a new task's title: "创建一个名为X的任务".
    "zh_task_after": ("的任务", "的待办", "任务"),
})
_IRREGULAR = {"set": ("setting", "set", "set"), "put": ("putting", "put", "put"), "make": ("making", "made", "made"),
              "give": ("giving", "gave", "given"), "break": ("breaking", "broke", "broken"),
              "split": ("splitting", "split", "split"), "get": ("getting", "got", "gotten"),
              "bring": ("bringing", "brought", "brought"), "shift": ("shifting", "shifted", "shifted"),
              "log": ("logging", "logged", "logged"), "tag": ("tagging", "tagged", "tagged"),
              "flag": ("flagging", "flagged", "flagged"), "drop": ("dropping", "dropped", "dropped"),
              "scrap": ("scrapping", "scrapped", "scrapped"), "begin": ("beginning", "began", "begun")}


def forms(verb: str) -> dict[str, str]:
    """A verb phrase's plain, -ing, past and past-participle forms (the first word inflects)."""
    head, _, rest = verb.partition(" ")
    if head in _IRREGULAR:
        ing, past, pp = _IRREGULAR[head]
    elif head.endswith("e") and not head.endswith("ee"):
        ing, past, pp = head[:-1] + "ing", head + "d", head + "d"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        ing, past, pp = head + "ing", head[:-1] + "ied", head[:-1] + "ied"
    else:
        ing, past, pp = head + "ing", head + "ed", head + "ed"
    tail = f" {rest}" if rest else ""
    return {"base": verb, "ing": ing + tail, "past": past + tail, "pp": pp + tail}


class Lexicon:
    """Classes of phrases as token sequences, longest first, so a match takes the longest phrase."""

    def __init__(self, classes: Mapping[str, Iterable[str]]) -> None:
        self._classes = {name: sorted({phrase_tokens(p) for p in phrases if p}, key=len, reverse=True)
                         for name, phrases in classes.items()}
        # Each class's phrases by their first token, longest first: a match looks only at those.
        self._starting: dict[str, dict[str, list[tuple[str, ...]]]] = {}
        for name, phrases in self._classes.items():
            for phrase in phrases:
                self._starting.setdefault(name, {}).setdefault(phrase[0], []).append(phrase)
        # Every token text of every phrase: a word that is one is the grammar's, not a name or a date's.
        self.known = frozenset(text for phrases in self._classes.values() for phrase in phrases for text in phrase)

    def phrase_at(self, texts: tuple[str, ...], pos: int) -> bool:
        """Whether a phrase of any class starts at pos (a Chinese character is a word of the grammar's only there:
        "据" of "数据" is none, "据说" is one)."""
        return any(self.match(texts, pos, name) for name in self._classes)

    def phrases(self) -> frozenset[tuple[str, ...]]:
        """Every phrase of every class, as tokens."""
        return frozenset(phrase for phrases in self._classes.values() for phrase in phrases)

    def _at(self, texts: tuple[str, ...], pos: int, name: str) -> list[tuple[str, ...]]:
        return self._starting.get(name, {}).get(texts[pos], []) if pos < len(texts) else []

    def split(self, texts: tuple[str, ...], pos: int, name: str) -> list[tuple[str, ...]]:
        """The rest of each phrase of two words or more whose first word is at pos ("wrap" … "up")."""
        return [p[1:] for p in self._at(texts, pos, name) if len(p) > 1]

    def match(self, texts: tuple[str, ...], pos: int, name: str) -> list[int]:
        """Where each phrase of the class that starts at pos ends, the longest first."""
        return [pos + len(p) for p in self._at(texts, pos, name) if texts[pos:pos + len(p)] == p]


def _capability_classes() -> dict[str, list[str]]:
    """Each capability's phrases as "<capability>.<class>", English verbs with their forms."""
    classes: dict[str, list[str]] = {}
    for name, phrases in PHRASES.items():
        for word_class, words in phrases.en.items():
            if word_class in ("verb", *_VERB_CLASSES):
                for form, inflected in ((f, w) for word in words for f, w in forms(word).items()):
                    classes.setdefault(f"{name}.{word_class}.{form}", []).append(inflected)
            else:
                classes.setdefault(f"{name}.{word_class}", []).extend(words)
        # Chinese verbs do not inflect: they join the plain forms.
        for word_class, words in phrases.zh.items():
            suffix = ".base" if word_class in ("verb", *_VERB_CLASSES) else ""
            classes.setdefault(f"{name}.{word_class}{suffix}", []).extend(words)
    return classes


# crud's rule classes (its phrases.py): each is a verb.
_VERB_CLASSES = ("mark", "set", "close", "block", "delete", "create", "assign", "staff", "unassign", "unstaff", "leave",
                 "rename", "tag", "retitle")


@cache
def lexicon() -> Lexicon:
    """The whole lexicon: the reader's own words and every capability's phrases."""
    own: dict[str, Iterable[str]] = {"courtesy": COURTESY, "correction": CORRECTIONS, "clause": (*CLAUSE, *ASIDES),
                                     "correction_mark": CORRECTION_MARKS, "laughter": LAUGHTER}
    for prefix, table in (("frame", FRAMES), ("closer", CLOSERS), ("not", NOT_ASKED), ("status", STATUSES),
                          ("priority", PRIORITIES), ("person", PERSON), ("question", QUESTIONS),
                          ("field", FIELDS), ("target", TARGETS), ("glue", GLUE), ("read", READS),
                          ("range", {**DUE_RANGES, **RANGE})):
        own.update({f"{prefix}.{key}": words for key, words in table.items()})
    return Lexicon({**own, **_capability_classes()})
