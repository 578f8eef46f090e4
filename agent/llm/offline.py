"""The offline provider: keyword rules stand in for the router model; no text generation.

It needs no key and no network, so the demo works anywhere. Its router answers in the same
JSON shape as a real model and goes through the same validation.
"""
from __future__ import annotations

import json
import re
from typing import Any

from agent.registry import CAPABILITIES

from .base import LLMError, LLMReply, Message, Role

_TASK_REF = re.compile(r"(?:#|\btask\s+#?)(\d{1,12})\b", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“'‘]([^\"”'’]{1,300})[\"”'’]")
_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_PRIORITY = re.compile(r"\b(P[0-3])\b", re.IGNORECASE)
_STATUS_WORDS = {"in progress": "in_progress", "blocked": "blocked", "to do": "todo", "todo": "todo",
                 "done": "done", "completed": "done"}
# Every slot key present, as a strict structured-output answer has them (ROUTE_SCHEMA).
_EMPTY_SLOTS: dict[str, Any] = {
    "operation": None, "task_id": None, "title": None, "status": None, "priority": None, "due_date": None,
    "scope": None, "expected_title": None, "expected_status": None, "status_filter": [], "priority_filter": [],
    "assignee_me": False, "preset": None, "week": None,
}
_ISO_WEEK = re.compile(r"\b(\d{4}-W\d{2})\b", re.IGNORECASE)


def _week(message: str, text: str) -> str | None:
    """The report week the user named: an ISO week, "this week" or "last week"."""
    iso = _ISO_WEEK.search(message)
    if iso:
        return iso.group(1).upper()
    if "this week" in text or "本周" in text:
        return "this"
    return "last" if "last week" in text or "上周" in text else None


def _has(text: str, *words: str) -> bool:
    return any(re.search(rf"\b{re.escape(w)}\b", text) for w in words)


def _classify(message: str) -> dict[str, Any]:
    text = message.lower()
    slots = dict(_EMPTY_SLOTS)
    ref = _TASK_REF.search(message)
    if ref:
        slots["task_id"] = int(ref.group(1))
    slots["week"] = _week(message, text)
    plural = _has(text, "these", "all", "visible", "every")
    scope = "visible" if plural else ("selected" if not ref else None)

    def route(capability: str, confidence: float = 0.9, **extra: Any) -> dict[str, Any]:
        return {"capability": capability, "confidence": confidence, "slots": {**slots, **extra}}

    if _has(text, "delete", "remove"):
        return route("crud", operation="delete", scope=scope)
    # Capabilities that declare their own keywords in the registry, in the registry's order.
    for spec in CAPABILITIES:
        if spec.matches(text):
            return route(spec.name, **spec.keyword_slots)
    if _has(text, "mark", "complete", "finish", "close") and _has(text, "done", "complete", "completed", "finish"):
        return route("crud", operation="update", status="done", scope=scope)
    if _has(text, "create", "add", "new task"):
        quoted = _QUOTED.search(message)
        title = quoted.group(1) if quoted else re.sub(r"(?i)^.*?\b(?:task|create|add)\b[:\s]*", "", message).strip()
        due = _DATE.search(message)
        priority = _PRIORITY.search(message)
        return route("crud", operation="create", title=title or None, due_date=due.group(1) if due else None,
                     priority=priority.group(1).upper() if priority else None)
    if _has(text, "overdue", "late"):
        return route("query", preset="my_overdue", assignee_me=True)
    # A question word alone is not a query ("what is the weather"): it must be about tasks.
    about_tasks = _has(text, "task", "tasks", "work", "todo", "to do", "in progress", "blocked") or \
        bool(_PRIORITY.search(message))
    if about_tasks and _has(text, "show", "list", "find", "which", "what", "how many", "my", "all", "tasks"):
        statuses = sorted({v for k, v in _STATUS_WORDS.items() if k in text})
        priorities = sorted({p.upper() for p in _PRIORITY.findall(message)})
        return route("query", status_filter=statuses, priority_filter=priorities,
                     assignee_me=_has(text, "my", "mine", "me", "i"))
    return route("clarify", confidence=0.2)


class OfflineProvider:
    name = "offline"
    offline = True
    endpoint = "offline"

    def complete(self, *, role: Role, messages: list[Message], json_schema: dict[str, Any] | None = None,
                 schema_name: str = "answer", tools: list[dict[str, Any]] | None = None,
                 budget: float = 30.0) -> LLMReply:
        """Classify the user's message by rules; refuse to write free text."""
        if role != "router" or json_schema is None:
            raise LLMError("The offline provider does not write text; the template answer is used.")
        message = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        return LLMReply(text=json.dumps(_classify(message)), model="offline-rules", prompt_tokens=0,
                        completion_tokens=0)
