"""The offline planner: a deterministic breakdown from the task's own words, so the demo works without a model.

A description's bullet or numbered list becomes one subtask per line; otherwise clauses joined by
"and" or semicolons (in the description's first sentence), else the description's sentences, else
the title's clauses become subtasks; only a task that names no parts at all gets a plain
plan / build / review. Its plan goes through the same validation as a model's.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .plan import SELECTED

_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)]|\[[ xX]?\])\s+(\S.*?)\s*$")
_AND = re.compile(r"\s*(?:,\s*and\s+|\s+and\s+|,\s*|;\s*|、|，|；|以及)\s*", re.IGNORECASE)
_JOINED = re.compile(r"\sand\s|以及|、|;|；", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n")
TEMPLATE = ("Plan", "Build", "Review")
TITLE_MAX = 300
CLAUSE_MIN = 2


def _tidy(text: str) -> str:
    text = text.strip().rstrip(".;,!?。；，！？").strip()
    return (text[:1].upper() + text[1:])[:TITLE_MAX]


def _bullets(description: str) -> list[str]:
    found = [m.group(1) for m in map(_BULLET.match, description.splitlines()) if m]
    return [_tidy(t) for t in found] if len(found) >= 2 else []


def _clauses(text: str) -> list[str]:
    first = _SENTENCE_END.split(text.strip(), maxsplit=1)[0] if text.strip() else ""
    if not _JOINED.search(first):
        return []
    # "The page must: load fast; show prices": the lead-in before a colon names no part.
    lead, colon, rest = first.partition(":")
    if colon and _JOINED.search(rest):
        first = rest
    parts = [_tidy(p) for p in _AND.split(first)]
    parts = [p for p in parts if len(p) >= CLAUSE_MIN]
    return parts if len(parts) >= 2 else []


def _sentences(description: str) -> list[str]:
    found = [_tidy(s) for s in _SENTENCE_END.split(description.strip())]
    found = [s for s in found if len(s) >= CLAUSE_MIN]
    return found if len(found) >= 2 else []


def offline_titles(brief: Mapping[str, Any]) -> list[str]:
    """The subtask titles the rules find in the task's description and title."""
    description = brief.get("description") or ""
    return (_bullets(description) or _clauses(description) or _sentences(description) or _clauses(brief["title"])
            or [_tidy(f"{verb}: {brief['title']}") for verb in TEMPLATE])


def offline_plan(brief: Mapping[str, Any], *, max_steps: int) -> dict[str, Any]:
    """A plan of create_subtask steps under the selected task, shaped like a planner's answer."""
    parent = {"from_step": SELECTED, "path": "$.id"}
    return {"steps": [{"id": f"s{n}", "tool": "create_subtask",
                       "args": {"parent_id": parent, "title": title, "due_date": None, "priority": None,
                                "assignee": None}}
                      for n, title in enumerate(offline_titles(brief)[:max_steps], start=1)]}
