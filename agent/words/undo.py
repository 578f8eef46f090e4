"""What the sidebar says when an Undo is refused, in the language of the run's message (agent.words.language).

In English, the API's own message. In another language, the refusal's code, the changes it names
(tasks.revert.ChangedSince) and the title of a task deleted since are said in its words; the keys,
titles and values are the server's, as in the API's message.
"""
from __future__ import annotations

from django.utils import timezone

from agent.models import Run
from pm_assistant.errors import ApplicationError
from tasks.revert import RevertRefused

from .language import Language, in_each_language

CHANGES_SHOWN = 3

# The English words say what the API's messages say; they stand as the reference that each other language
# fills the same keys and fields of (in_each_language checks it), while English itself shows exc.message.
WORDS = in_each_language(
    en={
        "already_undone": "This run was already undone.",
        "not_undoable": "This run changed nothing that can be undone.",
        "creates_or_deletes": "This run created or deleted tasks, which cannot be undone.",
        "forbidden": "You may not change these tasks, so nothing was restored.",
        "undo_expired": "Too late to undo: it was possible until {until}.",
        "deleted_since": "Nothing was restored: “{title}” was deleted since.",
        "changed_since": "Nothing was restored: {changes}{more}.",
        "change": "{task} {field} was changed{by} (now “{now}”)", "by": " by {name}", "join": "; ",
        "more": " and {n} more changes", "none": "none",
        "status": "status", "priority": "priority", "due_date": "due date", "assignee": "assignee",
        "title": "title", "progress": "progress",
    },
    zh={
        "already_undone": "这次操作已经撤销过了。",
        "not_undoable": "这次操作没有可以撤销的修改。",
        "creates_or_deletes": "这次操作创建或删除了任务，这些无法撤销。",
        "forbidden": "你无权修改这些任务，所以没有恢复任何内容。",
        "undo_expired": "已超过撤销期限：只能在 {until} 之前撤销。",
        "deleted_since": "没有恢复任何内容：“{title}”之后被删除了。",
        "changed_since": "没有恢复任何内容：{changes}{more}。",
        "change": "{task} 的{field}{by}改过了（现在是“{now}”）", "by": "被 {name} ", "join": "；",
        "more": "，另有 {n} 处修改", "none": "无",
        "status": "状态", "priority": "优先级", "due_date": "截止日期", "assignee": "负责人",
        "title": "标题", "progress": "进度",
    },
)


def undo_refusal_words(exc: ApplicationError, *, run: Run, language: Language) -> str:
    """The sentence the sidebar shows under the run when its Undo was refused."""
    if language == "en":
        return exc.message
    words = WORDS[language]
    if isinstance(exc, RevertRefused) and exc.creates_or_deletes:
        return words["creates_or_deletes"]
    if exc.code in ("already_undone", "not_undoable", "forbidden"):
        return words[exc.code]
    if exc.code == "undo_expired" and run.undo_until is not None:
        return words["undo_expired"].format(until=f"{timezone.localtime(run.undo_until):%H:%M}")
    if isinstance(exc, RevertRefused) and exc.deleted:
        return words["deleted_since"].format(title=exc.deleted)
    if isinstance(exc, RevertRefused) and exc.changed:
        changes = words["join"].join(
            words["change"].format(task=c.task, field=words.get(c.field, c.field.replace("_", " ")),
                                   by=words["by"].format(name=c.by) if c.by else "", now=c.now or words["none"])
            for c in exc.changed[:CHANGES_SHOWN])
        more = len(exc.changed) - CHANGES_SHOWN
        return words["changed_since"].format(changes=changes, more=words["more"].format(n=more) if more > 0 else "")
    return exc.message
