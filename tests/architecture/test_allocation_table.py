"""context_assemble against ALLOCATION (agent/context/three_views.py): carried as stated, nothing else leaks."""
from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from pydantic import BaseModel

from agent.context.assemble import AssembledContext, context_assemble
from agent.context.three_views import ALLOCATION, AS_IS, EXEC_VISIBLE_IDS_MAX, ExecCtx, ModelSummary, RouterCtx
from agent.context.tokens import token_count
from agent.page_context.names import entity_names_for
from agent.page_context.schema import Filters, PageContext, Pagination, RouteParams, SelectedEntity
from tasks.services import task_create

BASE = {"page": "task_list", "origin": "sidebar"}
KEY_FILTERS = Filters(status=("blocked",), priority=("P1",), assignee="me")
# Every other field at a value different from BASE; the project and task ids are filled in per test.
CHANGED: dict[str, Any] = {
    "page": "project_detail",
    "origin": "quick_button",
    "selected_entity": "task",
    "route_params": "project",
    "active_tab": "in_progress",
    "view_mode": "gantt",
    "filters": Filters(status=("blocked",), priority=("P1",), assignee="me", due_before=date(2030, 1, 31),
                       due_after=date(2030, 1, 1), labels=("ux",)),
    "visible_entity_ids": (3, 1, 2),
    "search_keyword": "login",
    "pagination": Pagination(page=3, page_size=10),
}
UNLISTED = [(view, field) for view, fields in ALLOCATION.items() for field in PageContext.model_fields
            if not any(field in sources for sources, _ in fields.values())]
LISTED = [(view, field) for view, fields in ALLOCATION.items() for field in fields]


@pytest.fixture
def world(alice: Any, website: Any) -> dict[str, Any]:
    task = task_create(actor=alice, project=website, title="Fix login page")
    return {"user": alice, "project": website, "task": task}


def _context(world: dict[str, Any], **changes: Any) -> PageContext:
    values = dict(BASE)
    for field, value in changes.items():
        if value == "task":
            value = SelectedEntity(type="task", id=world["task"].pk)
        elif value == "project":
            value = RouteParams(project_id=world["project"].pk)
        values[field] = value
    return PageContext(**values)


def _assemble(world: dict[str, Any], context: PageContext) -> AssembledContext:
    user = world["user"]
    return context_assemble(context=context, user_id=user.pk, names=entity_names_for(context=context, user=user))


def _view(assembled: AssembledContext, view: type[BaseModel]) -> BaseModel:
    return {RouterCtx: assembled.router, ExecCtx: assembled.exec, ModelSummary: assembled.summary}[view]


def test_allocation_covers_every_view_field_and_names_real_page_context_fields() -> None:
    assert set(ALLOCATION) == {RouterCtx, ExecCtx, ModelSummary}
    for view, fields in ALLOCATION.items():
        assert set(fields) == set(view.model_fields), view.__name__
        for sources, _ in fields.values():
            assert set(sources) <= set(PageContext.model_fields)
    assert set(CHANGED) == set(PageContext.model_fields), "give the new PageContext field a changed value"


@pytest.mark.parametrize(("view", "field"), UNLISTED, ids=[f"{v.__name__}-{f}" for v, f in UNLISTED])
def test_unlisted_page_context_field_never_reaches_the_view(db: Any, world: dict[str, Any],
                                                            view: type[BaseModel], field: str) -> None:
    base = _view(_assemble(world, _context(world)), view)
    changed = _view(_assemble(world, _context(world, **{field: CHANGED[field]})), view)
    assert changed == base, f"{field} leaked into {view.__name__}"


@pytest.mark.parametrize(("view", "field"), LISTED, ids=[f"{v.__name__}-{f}" for v, f in LISTED])
def test_listed_field_is_carried_as_stated(db: Any, world: dict[str, Any], view: type[BaseModel],
                                           field: str) -> None:
    sources, how = ALLOCATION[view][field]
    base = _view(_assemble(world, _context(world)), view)
    if how == AS_IS:
        [source] = sources
        context = _context(world, **{source: CHANGED[source]})
        carried = getattr(_view(_assemble(world, context), view), field)
        assert carried == getattr(context, source) != getattr(base, field)
    elif how.startswith("key filters only"):
        full = _context(world, filters=CHANGED["filters"])
        assert _view(_assemble(world, full), view).key_filters == KEY_FILTERS.key_filters() != base.key_filters
        keys_only = _context(world, filters=KEY_FILTERS)
        assert _view(_assemble(world, keys_only), view) == _view(_assemble(world, full), view)
    elif how == "full":
        context = _context(world, filters=CHANGED["filters"])
        assert getattr(_view(_assemble(world, context), view), field) == CHANGED["filters"]
    elif how.startswith("only when at most"):
        few = tuple(range(1, EXEC_VISIBLE_IDS_MAX + 1))
        assert getattr(_view(_assemble(world, _context(world, visible_entity_ids=few)), view), field) == few
        many = tuple(range(1, EXEC_VISIBLE_IDS_MAX + 2))
        assert getattr(_view(_assemble(world, _context(world, visible_entity_ids=many)), view), field) is None
    elif how.startswith("as words"):
        for source in sources:
            text = getattr(_view(_assemble(world, _context(world, **{source: CHANGED[source]})), view), field)
            assert text != getattr(base, field), f"{source} does not show in the words"
            assert "{" not in text and "_" not in text, "words, not field names or JSON"
    elif field == "user_id":
        assert getattr(base, field) == world["user"].pk
    elif field == "tokens":
        assert getattr(base, field) == token_count(base.text) > 0  # type: ignore[attr-defined]
    else:
        pytest.fail(f"No check for {view.__name__}.{field} carried {how!r}; add one here.")
