"""The sidebar's words for a refused request: what happened and what to do, never a field path.

The API keeps its contract (the message names the field); a person in the sidebar reads these instead.
"""
from __future__ import annotations

import re
from typing import Any

from pm_assistant.vocabulary import MESSAGE_MAX_CHARS

_GONE_TASK = re.compile(r"\btask \d+ is not visible to you")
_GONE_PROJECT = re.compile(r"\bproject \d+ is not visible to you")


def error_words(error: dict[str, Any]) -> tuple[str, bool]:
    """Return the sentence to show and whether the page's task list is stale and should refresh."""
    message, fields = str(error.get("message") or ""), error.get("fields") or {}
    field = next(iter(fields), "") if isinstance(fields, dict) else ""
    if _GONE_TASK.search(message):
        return ("That task no longer exists — it may have been deleted in another tab. "
                "The list has been refreshed."), True
    if _GONE_PROJECT.search(message):
        return "That project is no longer available to you. Reload the page to see your projects.", True
    if "control characters" in message:
        return "Your text holds an invisible control character. Retype it without pasting and try again.", False
    if field == "message" or message.startswith("message:"):
        if "at most" in message or "no more than" in message:
            return f"Your message is too long: keep it under {MESSAGE_MAX_CHARS} characters.", False
        return "Type a message, or use one of the buttons.", False
    if field == "before":  # "Show earlier" in the transcript, whose link names a run
        if error.get("code") == "not_found":
            return "Those earlier messages were not found. Reload the page to see the conversation.", False
        return "That link to earlier messages is broken: “before” must be a run id. Reload the page.", False
    if field == "action" or message.startswith("action:"):
        return "That button does not work on this page. Reload the page and try again.", False
    if error.get("code") in {"forbidden", "not_authenticated"}:
        return "You are not allowed to do that here. You may need to sign in again.", False
    if error.get("code") in {"conflict"}:
        return "That was already decided, so nothing more was done.", False
    return "The page sent something the assistant cannot use. Reload the page and try again.", False
