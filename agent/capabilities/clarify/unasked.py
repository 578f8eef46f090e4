"""The answer to a write that was named but not asked for, read whole: "don't …", "should I …?".

Nothing is written and no card is shown: the user did not ask. The answer says which change was
read, that nothing changed, and, for a question, what the change would do and how to ask for it.
The change is described from the deterministic rules' reading of the message (agent/llm/offline.py),
never from a model's slots, and in the language of the message.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings

from agent.reading.reader import Mood
from pm_assistant.markdown import literal
from pm_assistant.vocabulary import STATUS_LABELS, STATUS_LABELS_ZH


def _named(slots: dict[str, Any]) -> bool:
    """Whether the reading names its tasks: by id, or as the visible ones."""
    return slots.get("scope") == "visible" or slots.get("task_id") is not None


def _target(slots: dict[str, Any], *, chinese: bool, selected: bool, negated: bool) -> str:
    if slots.get("scope") == "visible":
        return "这些可见任务" if chinese else "the visible tasks"
    if slots.get("task_id") is not None:
        return f"任务{slots['task_id']}" if chinese else f"task {slots['task_id']}"
    if selected:
        return "这个任务" if chinese else "this task"
    # No task on the page and none named: "don't delete any task", "should I delete a task?"
    if negated:
        return "任何任务" if chinese else "any task"
    return "某个任务" if chinese else "a task"


def _change(capability: str, slots: dict[str, Any], *, chinese: bool, selected: bool = True,
            negated: bool = False) -> str:
    """The change in the imperative ("mark task 5 as done", "把任务 5 标记为已完成")."""
    target = _target(slots, chinese=chinese, selected=selected, negated=negated)
    if capability == "decompose":
        return f"把{target}拆解为子任务" if chinese else f"break {target} down into subtasks"
    operation = slots.get("operation")
    if operation == "delete":
        return f"删除{target}" if chinese else f"delete {target}"
    if operation == "assign":
        who = literal(str(slots.get("assignee") or ""))
        return f"把{target}分配给{who}" if chinese else f"assign {target} to {who}"
    if operation == "unassign":
        return f"取消{target}的分配" if chinese else f"unassign {target}"
    if operation == "rename":
        title = literal(str(slots.get("title") or ""))
        return f"把{target}改名为“{title}”" if chinese else f"rename {target} to “{title}”"
    if operation == "create":
        title = literal(str(slots.get("title") or ""))
        return (f"创建任务“{title}”" if title else "创建一个任务") if chinese else \
            (f"create the task “{title}”" if title else "create a task")
    status, others = slots.get("status"), {k: slots.get(k) for k in ("priority", "due_date") if slots.get(k)}
    if status and not others:
        label = STATUS_LABELS_ZH[status] if chinese else STATUS_LABELS[status].lower()
        return f"把{target}标记为{label}" if chinese else f"mark {target} as {label}"
    values = ({"status": STATUS_LABELS_ZH[status] if chinese else STATUS_LABELS[status].lower()} if status else {})
    values.update({k: str(v) for k, v in others.items()})
    if chinese:
        names = {"status": "状态", "priority": "优先级", "due_date": "截止日期"}
        return f"把{target}的" + "、".join(f"{names[k]}改为 {v}" for k, v in values.items())
    return f"set {target} to " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in values.items())


def _effect(capability: str, slots: dict[str, Any], *, chinese: bool) -> str:
    """What the change would do, as the capability does it."""
    minutes = settings.UNDO_WINDOW_SECONDS // 60
    if capability == "decompose":
        return "我会先给出子任务计划，由你批准后才执行" if chinese else \
            "I would first show the planned subtasks on a card, and nothing is created until you approve it"
    if slots.get("operation") == "delete":
        return "我会先显示确认卡片，你批准后才会删除" if chinese else \
            "I would first show a card, and the task is deleted only when you approve it"
    if slots.get("operation") == "create":
        return "新任务会加到项目里" if chinese else "the new task would be added to the project"
    return f"改动会立即生效，{minutes} 分钟内可以撤销" if chinese else \
        f"the change would take effect at once and could be undone for {minutes} minutes"


def _quoted(change: str, *, chinese: bool) -> str:
    """The change as a sentence to type, in quotes."""
    return f"“{change}”" if chinese else f"“{change[0].upper() + change[1:]}”"


def _how_to_ask(capability: str, slots: dict[str, Any], change: str, *, chinese: bool, selected: bool) -> str:
    """What to say to have it done: the change itself, or, when it names no task and none is on the page,
    the change with the task's key."""
    if _named(slots) or selected or slots.get("operation") == "create":
        return _quoted(change, chinese=chinese)
    keyed = _quoted(_change(capability, {**slots, "task_id": "KEY"}, chinese=chinese), chinese=chinese)
    return f"{keyed}，把 KEY 换成任务的编号" if chinese else f"{keyed} with the task's key in place of KEY"


def unasked_reply(mood: Mood, reading: dict[str, Any] | None, *, chinese: bool, selected: bool = True) -> str:
    """Say that nothing changed and why; for a question, what the change would do and how to ask for it.
    `selected`: the page has a task selected, which "this task" can mean."""
    if reading is None:
        return ("你的消息不是在要求修改，所以我什么都没有改。" if chinese else
                "Your message does not ask me to change anything, so nothing was changed.")
    capability, slots = reading["capability"], reading["slots"]
    change = _change(capability, slots, chinese=chinese, selected=selected, negated=mood == "negated")
    ask = _how_to_ask(capability, slots, change, chinese=chinese, selected=selected)
    if mood == "negated":
        return f"好的，我不会{change}。什么都没有改。" if chinese else \
            f"Understood: I won't {change}. Nothing was changed."
    if chinese:
        return (f"如果要{change}：{_effect(capability, slots, chinese=True)}。我现在什么都没有改；"
                f"需要的话请直接说{ask}。")
    return (f"If you asked me to {change}, {_effect(capability, slots, chinese=False)}. I have not changed "
            f"anything; to do it, say {ask}.")
