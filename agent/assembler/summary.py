"""ModelSummary: the page described in words from fixed templates (no LLM, no JSON, no ids)."""
from __future__ import annotations

import re
import unicodedata

from agent.page_context.schema import EntityNames, PageContext

from .tokens import token_count, token_truncate
from .views import MODEL_SUMMARY_MAX_TOKENS, ModelSummary

PAGE_WORDS = {"home": "the home workbench", "project_detail": "a project's detail page", "task_list": "the task list"}
STATUS_WORDS = {"todo": "to do", "in_progress": "in progress", "blocked": "blocked", "done": "done"}
VIEW_WORDS = {"list": "list view", "board": "board view", "gantt": "timeline (Gantt) view"}
TITLE_MAX = 48
LABEL_MAX = 20
LABELS_SHOWN = 3
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


def _filters_words(context: PageContext, names: EntityNames) -> str:
    f = context.filters
    parts = []
    if f.status:
        parts.append("status " + " or ".join(STATUS_WORDS[s] for s in f.status))
    if f.priority:
        parts.append("priority " + " or ".join(f.priority))
    if f.assignee == "me":
        parts.append("assigned to the user")
    elif f.assignee is not None:
        who = quote_user_text(names.assignee_name, 30) if names.assignee_name else "another member"
        parts.append(f"assigned to {who}")
    if f.due_after and f.due_before:
        parts.append(f"due between {f.due_after:%B %-d, %Y} and {f.due_before:%B %-d, %Y}")
    elif f.due_before:
        parts.append(f"due by {f.due_before:%B %-d, %Y}")
    elif f.due_after:
        parts.append(f"due from {f.due_after:%B %-d, %Y}")
    if f.labels:
        shown = ", ".join(quote_user_text(label, LABEL_MAX) for label in f.labels[:LABELS_SHOWN])
        more = f" and {len(f.labels) - LABELS_SHOWN} more" if len(f.labels) > LABELS_SHOWN else ""
        parts.append(f"labelled {shown}{more}")
    return "; ".join(parts)


def model_summary_render(*, context: PageContext, names: EntityNames) -> ModelSummary:
    """Describe the page in one or two sentences, at most MODEL_SUMMARY_MAX_TOKENS tokens."""
    where = [f"The user is on {PAGE_WORDS[context.page]}"]
    if names.project_name:
        where.append(f"in project {quote_user_text(names.project_name)}")
    if context.active_tab:
        where.append(f"on the {context.active_tab.replace('_', ' ')} tab")
    if context.view_mode:
        where.append(f"in {VIEW_WORDS[context.view_mode]}")
    first = ", ".join(where) + "."
    second = []
    if context.selected_entity and context.selected_entity.type == "task":
        second.append(f"The selected task is {quote_user_text(names.task_title or 'untitled')}")
    filters = _filters_words(context, names)
    if filters:
        second.append(f"the list is filtered to {filters}")
    text = first
    if second:
        sentence = "; ".join(second)
        text += " " + sentence[0].upper() + sentence[1:] + "."
    if token_count(text) > MODEL_SUMMARY_MAX_TOKENS:
        text = token_truncate(text, MODEL_SUMMARY_MAX_TOKENS - 2)
    return ModelSummary(text=text, tokens=token_count(text))
