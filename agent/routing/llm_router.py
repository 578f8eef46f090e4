"""The LLM fallback router: free text only, a small model, structured output, RouterCtx as words."""
from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from pydantic import ValidationError

from agent.context.three_views import RouterCtx
from agent.context.words import PAGE_WORDS, key_filter_words
from agent.llm.base import LLMError
from agent.llm.client import LLMClient
from agent.prompting.messages import PromptPart, PromptRefused, prompt_assemble
from agent.registry import BY_NAME

from .decision import ROUTE_SCHEMA, Route, Slots
from .prompts import ROUTER_INSTRUCTIONS


def router_ctx_words(ctx: RouterCtx) -> str:
    """Render the router's view as a few words: page, selection, tab and key filters."""
    words = [f"Page: {PAGE_WORDS[ctx.page]}."]
    if ctx.selected_entity:
        words.append(f"A {ctx.selected_entity.type} is selected.")
    if ctx.active_tab:
        words.append(f"Tab: {ctx.active_tab.replace('_', ' ')}.")
    filters = key_filter_words(ctx.key_filters)
    if filters:
        words.append("Filtered to " + ", ".join(filters) + ".")
    return " ".join(words)


def clarify_route(reason: str) -> Route:
    return Route(capability="clarify", via="llm_router", confidence=0.0, reason=reason)


def llm_route(*, ctx: RouterCtx, message: str, llm: LLMClient, task_facts: str = "") -> Route:
    """Classify free text into a capability with slots; anything doubtful becomes clarify.

    ``task_facts`` are the server's facts of the task the request is about, as words (facts first:
    the model reads them before it fills expected_title / expected_status).
    """
    facts = [PromptPart(ref="tool:target_facts", form="summary", role="system", text=task_facts,
                        heading="The task, as the database has it:")] if task_facts else []
    try:
        prompt = prompt_assemble([
            PromptPart(ref="prompt:router", form="instruction", role="system", text=ROUTER_INSTRUCTIONS),
            PromptPart(ref="router_ctx", form="summary", role="system", text=router_ctx_words(ctx),
                       heading="Where the user is:"),
            *facts,
            PromptPart(ref="user_message", form="full", role="user", text=message),
        ])
    except PromptRefused as exc:
        llm.recorder.alert(exc.kind, str(exc), key=f"route:{exc.ref}", ref=exc.ref, forms=exc.forms)
        return clarify_route("The request could not be put to the router safely.")
    try:
        raw: Any = llm.complete_json(purpose="route", role="router", prompt=prompt, json_schema=ROUTE_SCHEMA)
    except LLMError as exc:
        if exc.code == "llm_unavailable":
            raise
        return clarify_route("The router's answer could not be read.")
    if not isinstance(raw, dict) or not isinstance(raw.get("capability"), str) or raw["capability"] not in BY_NAME:
        return clarify_route("The router named no known capability.")
    slots_raw, confidence = raw.get("slots"), raw.get("confidence")
    # Any OpenAI-compatible endpoint may ignore the strict schema: check the shape ourselves.
    if not isinstance(slots_raw, dict) or isinstance(confidence, bool) or not isinstance(confidence, (int, float)) \
            or not math.isfinite(confidence) or not 0 <= confidence <= 1:
        return clarify_route("The router's answer was malformed.")
    try:
        slots = Slots.model_validate({k: v for k, v in slots_raw.items() if v is not None})
    except ValidationError:
        return clarify_route("The router's slots were invalid.")
    if confidence < settings.ROUTER_MIN_CONFIDENCE:
        return clarify_route("The request was not clear enough to act on.")
    return Route(capability=raw["capability"], via="llm_router", slots=slots, confidence=confidence)
