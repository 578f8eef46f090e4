"""The seed's small claims as measurements: visible ids in the router prompt, page context as JSON or words.

The router prompt is built by the app's own router (agent.routing.llm_router.llm_route) with
bench/router_tokens.py's client, which keeps the prompt instead of calling a model; the untrimmed
prompt is the same with the page-context JSON in place of the router's words (router.untrim).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from agent.context.assemble import context_assemble
from agent.context.tokens import token_count
from agent.page_context.names import EntityNames, entity_names_for
from agent.page_context.parse import page_context_read
from agent.page_context.schema import PageContext
from agent.routing.llm_router import llm_route
from bench.router_tokens import RecordingClient

from .router import untrim
from .session import CURRENT
from .suite import Scenario

VISIBLE_IDS = 50
MESSAGE = "which of these should I finish first?"


@dataclass(frozen=True)
class Micro:
    ids: int
    trimmed: tuple[int, int]
    untrimmed: tuple[int, int]
    # page -> (JSON tokens, JSON tokens without visibleEntityIds, ModelSummary tokens) per request of the suite
    pages: dict[str, list[tuple[int, int, int]]]


def _router_tokens(page: dict[str, Any], project_name: str) -> tuple[int, int]:
    views = context_assemble(context=PageContext.model_validate(page), user_id=1,
                             names=EntityNames(project_name=project_name))
    client = RecordingClient()
    llm_route(ctx=views.router, message=MESSAGE, llm=client)  # type: ignore[arg-type]
    messages = client.prompts[0].messages
    CURRENT.page = page
    return (sum(token_count(m["content"]) for m in messages),
            sum(token_count(m["content"]) for m in untrim(messages)))


def micro_measure(suite: list[Scenario], user: User, project_id: int, project_name: str) -> Micro:
    """Measure the router prompt with 0 and VISIBLE_IDS visible rows, and every suite page both ways."""
    counts = []
    for ids in (0, VISIBLE_IDS):
        page = {"page": "task_list", "origin": "sidebar", "routeParams": {"projectId": project_id},
                # archcheck: allow ARCH005 a sample filter (the recorded figures depend on it)
                "activeTab": "in_progress", "viewMode": "list", "filters": {"status": ["todo", "in_progress"]},
                "visibleEntityIds": list(range(1001, 1001 + ids)), "pagination": {"page": 1, "pageSize": 50}}
        counts.append(_router_tokens(page, project_name))
    pages: dict[str, list[tuple[int, int, int]]] = {}
    for scenario in suite:
        context = page_context_read(data=scenario.page, user=user).context
        summary = context_assemble(context=context, user_id=user.pk,
                                   names=entity_names_for(context=context, user=user)).summary
        without_ids = {k: v for k, v in scenario.page.items() if k != "visibleEntityIds"}
        pages.setdefault(scenario.page["page"], []).append(
            (token_count(json.dumps(scenario.page, ensure_ascii=False)),
             token_count(json.dumps(without_ids, ensure_ascii=False)), summary.tokens))
    return Micro(ids=VISIBLE_IDS, trimmed=(counts[0][0], counts[1][0]), untrimmed=(counts[0][1], counts[1][1]),
                 pages=pages)
