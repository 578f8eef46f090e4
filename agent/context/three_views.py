"""The three context views (docs/DESIGN.md#the-three-context-views): each consumer gets exactly its own fields.

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

# Which PageContext fields each view field is made from, and how (docs/DESIGN.md#the-three-context-views).
# A PageContext field a view does not list never reaches it. tests/architecture checks context_assemble
# against this table and docs/ARCHITECTURE.md renders its allocation table from it.
AS_IS = "as is"
# The whole value, where the router gets a part of it (the filters).
FULL = "full"
ALLOCATION: dict[type[BaseModel], dict[str, tuple[tuple[str, ...], str]]] = {
    RouterCtx: {
        "page": (("page",), AS_IS),
        "origin": (("origin",), AS_IS),
        "selected_entity": (("selected_entity",), AS_IS),
        "route_params": (("route_params",), AS_IS),
        "active_tab": (("active_tab",), AS_IS),
        "key_filters": (("filters",), "key filters only: status, assignee, priority"),
    },
    ExecCtx: {
        "user_id": ((), "the authenticated user from the session, never from the payload"),
        "selected_entity": (("selected_entity",), AS_IS),
        "route_params": (("route_params",), AS_IS),
        "filters": (("filters",), FULL),
        "visible_entity_ids": (("visible_entity_ids",), f"only when at most {EXEC_VISIBLE_IDS_MAX}, else None"),
        "search_keyword": (("search_keyword",), AS_IS),
        "pagination": (("pagination",), AS_IS),
    },
    ModelSummary: {
        "text": (("page", "selected_entity", "route_params", "active_tab", "view_mode", "filters"),
                 f"as words: templated sentences, at most {MODEL_SUMMARY_MAX_TOKENS} tokens"),
        "tokens": ((), "o200k_base token count of text"),
    },
}
