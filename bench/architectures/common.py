"""What the four architectures share: a turn's outcome, the client every baseline calls the model with."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from django.contrib.auth.models import User

from agent.llm.base import LLMProvider
from agent.llm.client import LLMClient
from agent.llm.providers import llm_provider_from_settings
from agent.models import Run
from agent.routing.quick_actions import quick_action_label
from agent.run.trace import TraceRecorder

from .meter import MeteredProvider
from .session import CURRENT
from .suite import Scenario


@dataclass(frozen=True)
class Turn:
    """What the user sees after one turn: the reply, and whether it waits for their decision."""

    reply: str
    asking: bool
    # The app's confirmation card, if one waits ("delete_task", "bulk_update", "decompose").
    card: str = ""


class Architecture(Protocol):
    name: str

    def start(self, scenario: Scenario, user: User) -> Turn: ...

    def answer(self, approve: bool) -> Turn: ...


def page_json() -> str:
    """The page context exactly as the browser sent it: what an untrimmed prompt carries."""
    return json.dumps(CURRENT.page, ensure_ascii=False)


@cache
def provider() -> LLMProvider:
    """The configured provider, built once: its HTTP client is the same for every request of the bench."""
    return llm_provider_from_settings()


def baseline_client(user: User, *, message: str, page: dict[str, Any]) -> LLMClient:
    """The project's LLM client (deadlines, breaker, trace) over the configured provider, metered."""
    run = Run.objects.create(user=user, message=message, page_context=page)
    recorder = TraceRecorder.for_run(run, resuming=False)
    return LLMClient(provider=MeteredProvider(provider(), CURRENT.meter), recorder=recorder)


def request_text(scenario: Scenario) -> str:
    """What a baseline without a fast path receives: the message, or the button's label as words."""
    return scenario.message or f"[button] {quick_action_label(scenario.action)}"


APPROVE, REJECT = "Yes, go ahead.", "No, leave it as it is."
