"""The words used to describe a page to a model: fixed vocabularies and cleaned, quoted user text."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from agent.page_context.schema import KeyFilters
from pm_assistant.vocabulary import STATUS_LABELS, Page, Status

# "to do", "in progress": the labels pages show, in the running text of a sentence.
STATUS_WORDS: Mapping[Status, str] = {status: label.lower() for status, label in STATUS_LABELS.items()}
PAGE_WORDS: Mapping[Page, str] = {
    "home": "the home workbench", "project_list": "the project list", "project_detail": "a project's detail page",
    "task_list": "the task list", "task_detail": "a task's detail page",
}
TITLE_MAX = 48
# Characters that would let user text pose as structure or instructions in a prompt; the curly
# quotes delimit user text, so inside it they would close the quote early.
_STRUCTURAL = re.compile(r"[{}\[\]<>`\"\\|#“”]")
_SPACES = re.compile(r"\s+")


def quote_user_text(text: str, limit: int = TITLE_MAX) -> str:
    """Return user-written text cleaned of control and structural characters, shortened, in quotes."""
    cleaned = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    cleaned = _SPACES.sub(" ", _STRUCTURAL.sub(" ", cleaned)).strip()
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
    return f"“{cleaned}”"


def key_filter_words(keys: KeyFilters, *, someone_else: str = "a teammate") -> list[str]:
    """Describe the key filters (status, priority, assignee) as short phrases."""
    parts = []
    if keys.status:
        parts.append("status " + " or ".join(STATUS_WORDS[s] for s in keys.status))
    if keys.priority:
        parts.append("priority " + " or ".join(keys.priority))
    if keys.assignee == "me":
        parts.append("assigned to the user")
    elif keys.assignee == "none":
        parts.append("assigned to nobody")
    elif keys.assignee is not None:
        parts.append(f"assigned to {someone_else}")
    return parts
