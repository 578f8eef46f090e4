"""The app's own path (agent.run.service): Router + trimming, and the same Router without trimming.

Both serve the request through run_request and run_confirm, with the fast path, the capabilities,
the confirmation cards and the checks unchanged. They differ only in what the model is sent:
untrimmed, every prompt carries the whole page context as JSON where the app puts its trimmed
view (the router's few words, the ModelSummary) — seed 003's "Router" stage, where every node
reads the full context. The swap happens at the provider, after the app's prompt checks, so the
degraded prompts reach the model exactly as an app without the Context Assembler would send them.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest.mock import patch

from django.contrib.auth.models import User

from agent.llm.base import LLMProvider, LLMReply, Message, Role
from agent.models import Run
from agent.registry import CAPABILITIES, CapabilitySpec
from agent.routing import llm_router
from agent.routing.decision import route_schema
from agent.routing.fast_path import fast_path_route
from agent.routing.prompts import router_instructions
from agent.run import service

from .common import Turn, page_json, provider
from .meter import MeteredProvider
from .session import CURRENT
from .suite import Scenario

# The headings under which the app puts its trimmed views (agent.routing.llm_router, capabilities).
_VIEWS = re.compile(r"(Where the user is:|The page:)\n.*?(?=\n\n|\Z)", re.S)


def suite_capabilities(suite: list[Scenario]) -> tuple[CapabilitySpec, ...]:
    """The capabilities the suite's requests go to, and clarify (the router's fallback), in the registry's order."""
    names = {"clarify"} | {scenario.route["capability"] for scenario in suite if scenario.route} | {
        fast_path_route(origin=scenario.page["origin"], action=scenario.action).capability
        for scenario in suite if scenario.action}
    return tuple(spec for spec in CAPABILITIES if spec.name in names)


@contextmanager
def router_over(specs: tuple[CapabilitySpec, ...]) -> Iterator[None]:
    """Give the app's router these capabilities only: its prompt's list and its schema's names.

    The bench measures the suite's requests: a capability none of them uses (one added since) would grow
    every routed prompt and change every figure without being measured.
    """
    with patch.object(llm_router, "ROUTER_INSTRUCTIONS", router_instructions(specs)), \
            patch.object(llm_router, "ROUTE_SCHEMA", route_schema(tuple(spec.name for spec in specs))):
        yield


def untrim(messages: list[Message]) -> list[Message]:
    """Put the whole page-context JSON where the router's words and the ModelSummary were."""
    return [{**m, "content": _VIEWS.sub(lambda found: f"{found.group(1)}\n{page_json()}", m["content"])}
            if isinstance(m.get("content"), str) else m for m in messages]


class UntrimmedProvider:
    """Send every prompt with the full page context in place of the trimmed views."""

    def __init__(self, inner: LLMProvider) -> None:
        self.inner = inner
        self.name, self.offline, self.endpoint = inner.name, inner.offline, inner.endpoint

    def complete(self, *, role: Role, messages: list[Message], **kwargs: Any) -> LLMReply:
        return self.inner.complete(role=role, messages=untrim(messages), **kwargs)


class RouterApp:
    def __init__(self, name: str, *, trimmed: bool) -> None:
        self.name = name
        self.trimmed = trimmed

    def _provider(self) -> LLMProvider:
        metered = MeteredProvider(provider(), CURRENT.meter)
        return metered if self.trimmed else UntrimmedProvider(metered)

    def start(self, scenario: Scenario, user: User) -> Turn:
        self.user = user
        with patch.object(service, "llm_provider_from_settings", self._provider):
            self.run = service.run_request(user=user, page_context=scenario.page, message=scenario.message or None,
                                           action=scenario.action or None)
        return self._turn()

    def answer(self, approve: bool) -> Turn:
        with patch.object(service, "llm_provider_from_settings", self._provider):
            self.run = service.run_confirm(user=self.user, run_id=self.run.pk,
                                           decision="approve" if approve else "reject")
        return self._turn()

    def _turn(self) -> Turn:
        run: Run = self.run
        pending = run.confirmations.filter(decided_at__isnull=True).first() \
            if run.status == Run.Status.NEEDS_CONFIRMATION else None
        return Turn(reply=run.reply, asking=pending is not None, card=pending.action if pending else "")


def router_untrimmed() -> RouterApp:
    return RouterApp("Router (untrimmed)", trimmed=False)


def router_trimmed() -> RouterApp:
    return RouterApp("Router + trimming", trimmed=True)
