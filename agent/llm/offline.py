"""The offline provider: keyword rules stand in for the router model; no text generation.

It needs no key and no network, so the demo works anywhere. Its router answers in the same
JSON shape as a real model and goes through the same validation. It reads English and Chinese:
capabilities that a word alone selects declare their keywords in the registry; the rules below
read the writes and queries, whose slots come from the wording.
"""
from __future__ import annotations

import json
import re
from typing import Any

from agent.language import QUOTED
from agent.registry import BY_NAME, CAPABILITIES, PHRASES

from .base import LLMError, LLMReply, Message, Role, RunListener
from .mood import Mood, mood_of

# "#42", "task 42", "任务 42" and a task key such as "WEB-42" (the number is the task's).
_TASK_REF = re.compile(r"(?:#|\btask\s+#?|任务\s*#?|(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]{0,9}-)(\d{1,12})(?!\d)",
                       re.IGNORECASE)
_PASTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』")
_DATE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
# Not \b: in "P1任务" the Han character is a word character too.
_PRIORITY = re.compile(r"(?<![A-Za-z0-9])(P[0-3])(?![A-Za-z0-9])", re.IGNORECASE)
_STATUS_WORDS = {"in progress": "in_progress", "blocked": "blocked", "to do": "todo", "todo": "todo",
                 "done": "done", "completed": "done", "进行中": "in_progress", "阻塞": "blocked", "受阻": "blocked",
                 "卡住": "blocked", "待办": "todo", "未开始": "todo", "已完成": "done", "完成的": "done"}
_ISO_WEEK = re.compile(r"\b(\d{4}-W\d{2})\b", re.IGNORECASE)
# Every slot key present, as a strict structured-output answer has them (ROUTE_SCHEMA).
_EMPTY_SLOTS: dict[str, Any] = {
    "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
    "scope": None, "project_name": None, "expected_title": None, "expected_status": None, "status_filter": [],
    "priority_filter": [], "assignee_me": False, "preset": None, "week": None,
}

_DELETE = ("delete", "remove", "删除", "删掉", "移除", "删了")
_PLURAL = ("these", "all", "visible", "every", "这些", "所有", "全部", "可见", "都")
_CREATE = ("create", "add", "new task", "创建", "新建", "添加", "新增", "加一个", "建一个")
_OVERDUE = ("overdue", "late", "past due", "逾期", "过期", "超期", "到期未完成")
_ABOUT_TASKS = ("task", "tasks", "work", "todo", "to do", "in progress", "blocked", "任务", "待办", "工作", "进行中",
                "阻塞")
_ASKING = ("show", "list", "find", "which", "what", "how many", "my", "all", "tasks", "哪些", "列出", "显示", "查找",
           "找", "多少", "我的", "所有", "看看", "有什么", "有哪些", "查询", "查看")
_ME = ("my", "mine", "me", "i", "我")
_THIS_TASK = ("this task", "the selected task", "this one", "这个任务", "该任务", "此任务", "当前任务", "这项任务")
_ABOUT = ("about", "describe", "details", "tell me", "summary", "summarize", "status of", "what is", "what's",
          "是什么", "关于", "介绍", "详情", "情况", "怎么样", "讲什么", "说说")
_HERE = ("here", "this project", "in the project", "这个项目", "本项目", "该项目", "此项目", "当前项目", "这里")
# Mark-done in English needs a verb and a done-word; in Chinese a verb of setting before 完成, or 完成 leading.
_DONE_VERB = ("mark", "marking", "complete", "finish", "close", "set", "setting")
_DONE_WORD = ("done", "complete", "completed", "finish", "finished")
_ZH_DONE = re.compile(r"(?:标记|标为|设为|设置为|改为|改成|置为|标成)[^，。？]{0,4}?(?<!未)(?:已?完成|done)"
                      r"|^(?:请)?完成(?!的)|做完了")
# "close task 5", "finish #5": a done-verb right before the task it names is a done-word too.
_CLOSE_TASK = re.compile(r"\b(?:close|finish)\s+(?:task\s*#?\d|#\d|this task)")
# Changing a task's priority, status or due date: a verb of changing and a new value the message names.
_UPDATE_VERB = ("set", "mark", "change", "make", "move", "update", "put", "bump", "raise", "lower", "reschedule",
                "push")
# Chinese verbs match anywhere, also right before a Latin value ("改为P1").
_ZH_UPDATE_VERB = ("改为", "改成", "设为", "设置为", "调为", "调到", "调整为", "改到", "推迟到", "移到", "标为",
                   "标记为")
# "…in Website Redesign?", "for project Apollo", "在 Website Redesign 项目里": a project named by the user.
# The last "in"/"for" wins ("tasks in progress in Website Redesign"): the leading .* is greedy.
_EN_PROJECT = re.compile(r".*\b(?:in|for|on|of|within)\s+(?:the\s+)?(?:project\s+)?[\"“]?"
                         r"(?P<name>[A-Za-z0-9][^?!.,;\"”]{0,99}?)[\"”]?(?:\s+project)?\s*[?!.？！。]*$", re.IGNORECASE)
_ZH_PROJECT = (re.compile(r"在\s*[“\"「]?(?P<name>[^，。？?“”\"「」]{1,60}?)[”\"」]?\s*(?:项目)?\s*(?:里|中|内)"),
               re.compile(r"(?P<name>[A-Za-z0-9][A-Za-z0-9 _-]{0,59}?)\s*项目\s*(?:里|中|内|的)"))
# A name of two or more capitalised words leading a Chinese question, "Website Redesign 有哪些逾期任务？": not
# one word ("Alice 有哪些任务" names a person), not a status, a task ("Task 5") or task keys ("WEB-25 WEB-26").
_ZH_LEADING_NAME = re.compile(r"^\s*(?P<name>[A-Z][A-Za-z0-9_-]*(?: [A-Z][A-Za-z0-9_-]*){1,5})\s*"
                              r"(?:里|中|有哪些|有什么|有多少)")
_TASK_KEY = re.compile(r"^[A-Z][A-Z0-9]{1,9}-\d+$")
# Words after "in"/"for" that are not project names.
_NOT_PROJECTS = re.compile(r"^(?:progress|review|this .*|last .*|next .*|the .*|it|me|my .*|all .*|here|there|"
                           r"\d.*|week|today|tomorrow|p[0-3]|general|detail|short|words|english|chinese)$", re.I)


def _has(text: str, *words: str) -> bool:
    """Tell whether any word occurs: Latin words whole, Chinese anywhere (it has no spaces)."""
    return any(re.search(rf"(?<![a-z0-9_]){re.escape(w)}(?![a-z0-9_])", text) for w in words)


def _week(message: str, text: str) -> str | None:
    """The report week the user named: an ISO week, "this week" or "last week"."""
    iso = _ISO_WEEK.search(message)
    if iso:
        return iso.group(1).upper()
    if _has(text, "this week", "本周", "这周", "这一周"):
        return "this"
    return "last" if _has(text, "last week", "上周", "上一周") else None


def _project_name(message: str, text: str) -> str | None:
    """The project the user named in the message, as written; the server resolves it against their projects."""
    if _has(text, *_HERE):
        return None
    found = _EN_PROJECT.match(message) or next(filter(None, (p.search(message) for p in _ZH_PROJECT)), None)
    if not found:
        leading = _ZH_LEADING_NAME.match(message)
        words = leading.group("name").split() if leading else []
        if not words or words[0].lower() == "task" or any(_TASK_KEY.match(w) for w in words) \
                or " ".join(words).lower() in _STATUS_WORDS:
            return None
        return " ".join(words)
    name = found.group("name").strip()
    return None if not name or _NOT_PROJECTS.match(name) else name


def _title(message: str) -> str | None:
    """A new task's title: the quoted text, else what follows the create word."""
    quoted = QUOTED.search(message)  # as agent.language reads quotes
    if quoted:
        return next(part for part in quoted.groups() if part is not None).strip()
    rest = re.sub(r"(?i)^.*?(?:(?:\b(?:a|an|new|task|create|add)\b|任务|创建|新建|添加|新增|一个)[:：\s]*)+", "",
                  message).strip()
    return rest or None


def _update_changes(request: str) -> dict[str, Any]:
    """The new values a change names: one priority, one status, one ISO date (none when ambiguous)."""
    priorities = {p.upper() for p in _PRIORITY.findall(request)}
    statuses = {v for k, v in _STATUS_WORDS.items() if _has(request, k)}
    dates = set(_DATE.findall(request))
    changes = {"priority": priorities, "status": statuses, "due_date": dates}
    return {name: next(iter(values)) for name, values in changes.items() if len(values) == 1}


def rules_read(message: str) -> dict[str, Any]:
    """Read what the message names (a capability and slots) by rules alone, whether or not it is asked for."""
    text = message.lower()
    # A quoted title is the user's data, not their request: "create 'Risk review'" is no risk analysis.
    # So is text pasted between curly quotes or corner brackets, whatever quotes it holds itself.
    request = QUOTED.sub(" ", _PASTED.sub(" ", text))
    slots = dict(_EMPTY_SLOTS)
    ref = _TASK_REF.search(message)
    if ref:
        slots["task_id"] = int(ref.group(1))
    slots["week"] = _week(message, text)
    slots["project_name"] = _project_name(message, text)
    plural = _has(request, *_PLURAL)
    scope = "visible" if plural else ("selected" if not ref else None)

    def route(capability: str, confidence: float = 0.9, **extra: Any) -> dict[str, Any]:
        return {"capability": capability, "confidence": confidence, "slots": {**slots, **extra}}

    if _has(request, *_DELETE):
        return route("crud", operation="delete", scope=scope)
    # Capabilities that declare their own keywords in the registry, in the registry's order.
    for spec in CAPABILITIES:
        phrases = PHRASES.get(spec.name)
        if phrases is not None and spec.name not in ("crud", "query") and any(
                _has(request, *words) for words in (*phrases.en.values(), *phrases.zh.values())):
            return route(spec.name, **phrases.slots)
    if (_has(request, *_DONE_VERB) and _has(request, *_DONE_WORD)) or _ZH_DONE.search(request) \
            or _CLOSE_TASK.search(request):
        return route("crud", operation="update", status="done", scope=scope)
    if _has(request, *_CREATE):
        due, priority = _DATE.search(message), _PRIORITY.search(message)
        return route("crud", operation="create", title=_title(message), due_date=due.group(1) if due else None,
                     priority=priority.group(1).upper() if priority else None, project_name=None)
    changes = _update_changes(request)
    if changes and (_has(request, *_UPDATE_VERB) or any(verb in request for verb in _ZH_UPDATE_VERB)):
        return route("crud", operation="update", scope=scope, **changes)
    here = "project" if _has(request, *_HERE) else None
    if _has(request, *_OVERDUE):
        return route("query", preset="my_overdue", assignee_me=True, scope=here)
    if _has(request, *_ABOUT) and (ref or _has(request, *_THIS_TASK)):
        return route("query", scope="selected")
    # A question word alone is not a query ("what is the weather"): it must be about tasks.
    about_tasks = _has(request, *_ABOUT_TASKS) or bool(_PRIORITY.search(message))
    if about_tasks and _has(request, *_ASKING):
        statuses = sorted({v for k, v in _STATUS_WORDS.items() if _has(request, k)})
        priorities = sorted({p.upper() for p in _PRIORITY.findall(message)})
        return route("query", status_filter=statuses, priority_filter=priorities,
                     assignee_me=_has(request, *_ME), scope=here)
    return route("clarify", confidence=0.2)


def request_mood(message: str, reading: dict[str, Any] | None = None) -> Mood:
    """Whether the message asks for what it names: its mood, read without a new task's title.

    A title is the user's data: "create a task: don't forget the milk" asks for a task.
    """
    reading = reading or rules_read(message)
    title = reading["slots"].get("title") if reading["slots"].get("operation") == "create" else None
    return mood_of(message.replace(title, " ") if title else message)


def unasked_write(message: str, reading: dict[str, Any] | None = None) -> tuple[Mood, dict[str, Any]] | None:
    """The write the message names without asking for it ("don't mark task 5 done"), with its mood; else None."""
    reading = reading or rules_read(message)
    if not BY_NAME[reading["capability"]].writes:
        return None
    mood = request_mood(message, reading)
    return None if mood == "request" else (mood, reading)


def rules_route(message: str) -> dict[str, Any]:
    """Route the message by rules alone; a write it names but does not ask for is answered, not done."""
    reading = rules_read(message)
    if unasked_write(message, reading) is not None:
        # The clarify node explains what the write would do; the slots say which write.
        return {**reading, "capability": "clarify"}
    return reading


class OfflineProvider:
    name = "offline"
    offline = True
    endpoint = "offline"

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None,
                 budget: float = 30.0, sink: RunListener | None = None) -> LLMReply:
        """Classify the user's message by rules; refuse to write free text."""
        if role != "router" or json_schema is None:
            raise LLMError("The offline provider does not write text; the template answer is used.")
        message = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        return LLMReply(text=json.dumps(rules_route(message)), model="offline-rules", prompt_tokens=0,
                        completion_tokens=0)
