"""The Context Assembler: one pure function that splits a PageContext into the three views."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from agent.context.three_views import ALLOCATION, AS_IS, EXEC_VISIBLE_IDS_MAX, FULL, ExecCtx, ModelSummary, RouterCtx
from agent.page_context.schema import EntityNames, PageContext

from .summary import model_summary_render


@dataclass(frozen=True)
class AssembledContext:
    router: RouterCtx
    exec: ExecCtx
    summary: ModelSummary


def _copied(view: type[BaseModel], context: PageContext) -> dict[str, Any]:
    """The view's fields that ALLOCATION says it takes from one PageContext field unchanged ("as is", "full")."""
    return {field: getattr(context, sources[0]) for field, (sources, how) in ALLOCATION[view].items()
            if how in (AS_IS, FULL)}


def context_assemble(*, context: PageContext, user_id: int, names: EntityNames) -> AssembledContext:
    """Return RouterCtx, ExecCtx and ModelSummary for one request (docs/DESIGN.md#the-three-context-views)."""
    router = RouterCtx(**_copied(RouterCtx, context), key_filters=context.filters.key_filters())
    visible = context.visible_entity_ids
    exec_ctx = ExecCtx(**_copied(ExecCtx, context), user_id=user_id,
                       visible_entity_ids=visible if len(visible) <= EXEC_VISIBLE_IDS_MAX else None)
    return AssembledContext(router=router, exec=exec_ctx, summary=model_summary_render(context=context, names=names))
