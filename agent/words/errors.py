"""The sidebar's words for a refused request: what happened and what to do, never a field path.

The API keeps its contract (the message names the field); a person in the sidebar reads these instead, in
the language of the message they sent (agent.words.language).
"""
from __future__ import annotations

import re
from typing import Any

from agent.words.language import Language, in_each_language
from pm_assistant.vocabulary import MESSAGE_MAX_CHARS

_GONE_TASK = re.compile(r"\btask \d+ is not visible to you")
_GONE_PROJECT = re.compile(r"\bproject \d+ is not visible to you")

TEXTS = in_each_language(
    en={
        "failed": "That didn't work.",
        "gone_task": "That task no longer exists — it may have been deleted in another tab. The list has been "
                     "refreshed.",
        "gone_project": "That project is no longer available to you. Reload the page to see your projects.",
        "control": "Your text holds an invisible control character. Retype it without pasting and try again.",
        "too_long": "Your message is too long: keep it under {limit} characters.",
        "empty": "Type a message, or use one of the buttons.",
        "before_missing": "Those earlier messages were not found. Reload the page to see the conversation.",
        "before_broken": "That link to earlier messages is broken: “before” must be a run id. Reload the page.",
        "action": "That button does not work on this page. Reload the page and try again.",
        "forbidden": "You are not allowed to do that here. You may need to sign in again.",
        "conflict": "That was already decided, so nothing more was done.",
        "unusable": "The page sent something the assistant cannot use. Reload the page and try again.",
        "conversation_gone": "This conversation was deleted while your message was on its way, so nothing was "
                             "done. Send it again to start a new conversation.",
    },
    zh={
        "failed": "没有成功。",
        "gone_task": "这个任务已不存在，可能已在另一个标签页中删除。列表已刷新。",
        "gone_project": "你已无法访问这个项目。请重新加载页面查看你的项目。",
        "control": "你的文字中有一个看不见的控制字符。请不要粘贴，重新输入后再试。",
        "too_long": "你的消息太长了：请控制在 {limit} 个字符以内。",
        "empty": "请输入消息，或使用其中一个按钮。",
        "before_missing": "找不到之前的消息。请重新加载页面查看对话。",
        "before_broken": "指向之前消息的链接已损坏：“before”必须是一个运行 id。请重新加载页面。",
        "action": "这个按钮在此页面上不可用。请重新加载页面后再试。",
        "forbidden": "你无权在这里执行此操作。你可能需要重新登录。",
        "conflict": "这已经决定过了，所以没有再做任何事。",
        "unusable": "页面发送了助手无法使用的内容。请重新加载页面后再试。",
        "conversation_gone": "这个对话在你的消息发送途中被删除了，所以什么也没有做。再发送一次即可开始新的对话。",
    },
)


def _error_key(error: dict[str, Any]) -> tuple[str, bool]:
    message, fields = str(error.get("message") or ""), error.get("fields") or {}
    field = next(iter(fields), "") if isinstance(fields, dict) else ""
    if _GONE_TASK.search(message):
        return "gone_task", True
    if _GONE_PROJECT.search(message):
        return "gone_project", True
    if "control characters" in message:
        return "control", False
    if field == "message" or message.startswith("message:"):
        return ("too_long" if "at most" in message or "no more than" in message else "empty"), False
    if field == "before":  # "Show earlier" in the transcript, whose link names a run
        return ("before_missing" if error.get("code") == "not_found" else "before_broken"), False
    if field == "conversation_id":  # deleted (another tab) while the message was on its way
        return "conversation_gone", False
    if field == "action" or message.startswith("action:"):
        return "action", False
    if error.get("code") in {"forbidden", "not_authenticated"}:
        return "forbidden", False
    if error.get("code") in {"conflict"}:
        return "conflict", False
    return "unusable", False


def error_words(error: dict[str, Any], language: Language = "en") -> tuple[str, bool]:
    """Return the sentence to show and whether the page's task list is stale and should refresh."""
    key, stale = _error_key(error)
    return TEXTS[language][key].format(limit=MESSAGE_MAX_CHARS), stale
