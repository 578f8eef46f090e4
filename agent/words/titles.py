"""What a conversation is called: the first request, named after what it was about, the same everywhere.

A quick button names its action and the task it acted on ("Mark done: WEB-18 Audit the landing page");
a typed message is summarised deterministically (no model): greetings, politeness and lead-ins
dropped, cut at a word near TITLE_SUMMARY_MAX characters. Conversations that still
share a title are told apart by a number in the order they were started, counted over all of the
user's conversations, so a conversation has the same name in Recent, in a search and in a notice.
"""
from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef

from agent.models import Conversation, Run
from agent.page_context.schema import EntityNames
from agent.routing.quick_actions import quick_action_label
from pm_assistant.one_line import one_line

TITLE_SUMMARY_MAX = 48
TITLE_MAX_CHARS = 80
# Words that open a request without saying what it is about.
_LEAD_INS = re.compile(
    r"^(?:(?:hi|hey|hello|ok|okay)[,!.]?\s+)?(?:assistant[,:]?\s+)?(?:please\s+)?"
    r"(?:(?:can|could|would|will) you(?: please)?\s+|i(?:'d| would) like (?:you )?to\s+|i want (?:you )?to\s+"
    r"|help me(?: to)?\s+|let'?s\s+|please\s+)*", re.IGNORECASE)
_LEAD_INS_ZH = re.compile(r"^(?:你好[，,]?)?(?:请你?|麻烦你?|能不能|可以|你能|帮我|帮忙)*")
_TRAILING = re.compile(r"(?:[\s,]+please)?[\s.!。！,，]*$", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")


def typed_summary(message: str) -> str:
    """A short title for a typed request, the same for the same words."""
    text = " ".join(one_line(message).split())
    shorter = _TRAILING.sub("", _LEAD_INS_ZH.sub("", _LEAD_INS.sub("", text)))
    text = shorter or text
    limit = TITLE_SUMMARY_MAX // 2 if _CJK.search(text) else TITLE_SUMMARY_MAX
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    if not _CJK.search(cut) and " " in cut[limit // 2:]:
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "\u2026"


def request_title(*, message: str, action: str, names: EntityNames) -> str:
    """The title a conversation gets from its first request (the names its page refers to, read already)."""
    if message.strip():
        return typed_summary(message)
    if names.task_title is not None:
        subject = f"{names.task_key} {names.task_title}" if names.task_key else names.task_title
    else:
        subject = names.project_name or ""
    label = quick_action_label(action)
    title = f"{label}: {subject}" if subject else label
    return title if len(title) <= TITLE_MAX_CHARS else title[:TITLE_MAX_CHARS - 1].rstrip() + "\u2026"


def conversations_label(user: User, conversations: list[Conversation]) -> None:
    """Give each conversation its ``label``: its title, numbered "(2)" when other conversations of the
    user with runs share it (counted over all of them, in the order they were started)."""
    titles = {c.title for c in conversations}
    order: dict[str, list[object]] = {}
    used = Run.objects.filter(conversation=OuterRef("pk"))
    rows = (Conversation.objects.filter(Exists(used), user=user, title__in=titles)
            .order_by("created_at", "pk").values_list("title", "pk"))
    for title, pk in rows:
        order.setdefault(title, []).append(pk)
    for conversation in conversations:
        same = order.get(conversation.title, [])
        title = conversation.title or "Untitled"
        number = same.index(conversation.pk) + 1 if conversation.pk in same else 0
        conversation.label = f"{title} ({number})" if len(same) > 1 and number else title  # type: ignore[attr-defined]


def conversation_label(conversation: Conversation) -> str:
    """One conversation's name as every list shows it."""
    conversations_label(conversation.user, [conversation])
    return str(conversation.label)  # type: ignore[attr-defined]
