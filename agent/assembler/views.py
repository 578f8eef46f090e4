"""The three context views (DESIGN §3): each consumer gets exactly its own fields.

The types are frozen and refuse unknown fields, so a view can never grow a field that the
allocation table does not give it. docs/ARCHITECTURE.md renders its table from these types.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from agent.page_context.schema import (
    Filters,
    KeyFilters,
    Origin,
    Page,
    Pagination,
    RouteParams,
    SelectedEntity,
)


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RouterCtx(_View):
    """What the routers may see: where the user is and which entry they used."""

    page: Page
    origin: Origin
    selected_entity: SelectedEntity | None = None
    route_params: RouteParams = RouteParams()
    active_tab: str | None = None
    key_filters: KeyFilters = KeyFilters()


class ExecCtx(_View):
    """What tools and executors may see: the acting user and the data selection, never the origin."""

    user_id: int
    selected_entity: SelectedEntity | None = None
    route_params: RouteParams = RouteParams()
    filters: Filters = Filters()
    # None when the page showed more than EXEC_VISIBLE_IDS_MAX rows: tools re-query by filters.
    visible_entity_ids: tuple[int, ...] | None = None
    search_keyword: str = ""
    pagination: Pagination = Pagination()


class ModelSummary(_View):
    """What LLM prompts may see: one or two templated sentences, no JSON and no raw ids."""

    text: str
    tokens: int


EXEC_VISIBLE_IDS_MAX = 20
MODEL_SUMMARY_MAX_TOKENS = 200
