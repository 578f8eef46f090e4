"""The page-context markup every page renders for the assistant: one element, data attributes only.

Plain attributes (page, active tab, view mode, search keyword) are omitted when empty; JSON
attributes use camelCase keys, hold only keys that are set and are ``{}``/``[]`` when empty.
The values are returned unescaped: templates escape them (Django autoescape).
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Literal

from pm_assistant.vocabulary import Page

from .filters import TaskFilters


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def filters_as_camel(filters: TaskFilters | None) -> dict[str, Any]:
    """Return the filters the page applies in the contract's camelCase shape, only keys that are set."""
    if filters is None:
        return {}
    out: dict[str, Any] = {}
    if filters.status:
        out["status"] = list(filters.status)
    if filters.assignee is not None:
        out["assignee"] = filters.assignee
    if filters.priority:
        out["priority"] = list(filters.priority)
    if filters.due_before:
        out["dueBefore"] = filters.due_before.isoformat()
    if filters.due_after:
        out["dueAfter"] = filters.due_after.isoformat()
    if filters.labels:
        out["labels"] = list(filters.labels)
    return out


def page_context_for(
    *,
    page: Page,
    selected_entity: tuple[Literal["task", "project"], int] | None = None,
    project_id: int | None = None,
    task_id: int | None = None,
    active_tab: str | None = None,
    view_mode: str | None = None,
    filters: TaskFilters | None = None,
    visible_entity_ids: Iterable[int] = (),
    page_number: int | None = None,
    page_size: int | None = None,
) -> list[tuple[str, str]]:
    """Return the ``(attribute, value)`` pairs of the #page-context element, in a fixed order."""
    attrs: list[tuple[str, str]] = [("data-page", page)]
    if selected_entity is not None:
        kind, pk = selected_entity
        attrs.append(("data-selected-entity", _json({"type": kind, "id": pk})))
    route: dict[str, int] = {}
    if task_id is not None:
        route["taskId"] = task_id
    if project_id is not None:
        route["projectId"] = project_id
    attrs.append(("data-route-params", _json(route)))
    if active_tab:
        attrs.append(("data-active-tab", active_tab))
    if view_mode:
        attrs.append(("data-view-mode", view_mode))
    attrs.append(("data-filters", _json(filters_as_camel(filters))))
    attrs.append(("data-visible-entity-ids", _json([int(pk) for pk in visible_entity_ids])))
    if filters is not None and filters.search:
        attrs.append(("data-search-keyword", filters.search))
    pagination: dict[str, int] = {}
    if page_number is not None:
        pagination["page"] = page_number
    if page_size is not None:
        pagination["pageSize"] = page_size
    attrs.append(("data-pagination", _json(pagination)))
    return attrs
