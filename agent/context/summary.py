"""ModelSummary: the page described in words from fixed templates (no LLM, no JSON, no ids)."""
from __future__ import annotations

from agent.context.three_views import MODEL_SUMMARY_MAX_TOKENS, ModelSummary
from agent.page_context.schema import EntityNames, PageContext

from .tokens import token_count, token_truncate
from .words import PAGE_WORDS, key_filter_words, quote_user_text

VIEW_WORDS = {"list": "list view", "board": "board view", "gantt": "timeline (Gantt) view"}
LABEL_MAX = 20
LABELS_SHOWN = 3


def _filters_words(context: PageContext, names: EntityNames) -> str:
    f = context.filters
    who = quote_user_text(names.assignee_name, 30) if names.assignee_name else "another member"
    parts = key_filter_words(f.key_filters(), someone_else=who)
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
    tokens = token_count(text)
    if tokens > MODEL_SUMMARY_MAX_TOKENS:
        text = token_truncate(text, MODEL_SUMMARY_MAX_TOKENS - 2)
        tokens = token_count(text)
    return ModelSummary(text=text, tokens=tokens)
