"""The Context Assembler: one pure function that splits a PageContext into the three views."""
from __future__ import annotations

from dataclasses import dataclass

from agent.page_context.schema import EntityNames, PageContext

from .summary import model_summary_render
from .views import EXEC_VISIBLE_IDS_MAX, ExecCtx, ModelSummary, RouterCtx


@dataclass(frozen=True)
class AssembledContext:
    router: RouterCtx
    exec: ExecCtx
    summary: ModelSummary


def context_assemble(*, context: PageContext, user_id: int, names: EntityNames) -> AssembledContext:
    """Return RouterCtx, ExecCtx and ModelSummary for one request (docs/DESIGN.md#the-three-context-views)."""
    router = RouterCtx(
        page=context.page,
        origin=context.origin,
        selected_entity=context.selected_entity,
        route_params=context.route_params,
        active_tab=context.active_tab,
        key_filters=context.filters.key_filters(),
    )
    visible = context.visible_entity_ids
    exec_ctx = ExecCtx(
        user_id=user_id,
        selected_entity=context.selected_entity,
        route_params=context.route_params,
        filters=context.filters,
        visible_entity_ids=visible if len(visible) <= EXEC_VISIBLE_IDS_MAX else None,
        search_keyword=context.search_keyword,
        pagination=context.pagination,
    )
    return AssembledContext(router=router, exec=exec_ctx, summary=model_summary_render(context=context, names=names))
