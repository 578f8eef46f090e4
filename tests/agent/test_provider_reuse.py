"""Runs share one model client per process and settings instead of building one per run."""
from __future__ import annotations

from typing import Any
from unittest import mock

from agent.llm import openai_provider
from agent.llm.providers import llm_provider_from_settings
from tests.agent.test_llm_router import ask, route_json
from tests.llm_stub import LLMStub

PAGE = {"page": "task_list", "origin": "sidebar"}


def test_two_runs_build_the_model_client_once(openai_settings: LLMStub, alice: Any) -> None:
    llm_provider_from_settings()  # whatever an earlier test left, this settings' provider exists now
    built = mock.patch.object(openai_provider.openai, "OpenAI", wraps=openai_provider.openai.OpenAI)
    # The router's answer, then the summary's prose, for each run.
    for _ in range(2):
        openai_settings.push_json(route_json("query", assignee_me=True)).push_text("Your tasks.")
    with built as constructor:
        first = ask(alice, "show my tasks", PAGE)
        second = ask(alice, "show my tasks", PAGE)
    assert first["status"] == second["status"] == "done", (first, second)
    assert len(openai_settings.requests) == 4
    assert constructor.call_count == 0


def test_a_changed_endpoint_or_model_gets_its_own_client(openai_settings: LLMStub, settings: Any) -> None:
    provider = llm_provider_from_settings()
    assert llm_provider_from_settings() is provider
    settings.LLM_ROUTER_MODEL = "another-router"
    assert llm_provider_from_settings() is not provider
    settings.OPENAI_BASE_URL = "http://127.0.0.1:9/v1"
    moved = llm_provider_from_settings()
    assert moved.endpoint.startswith("http://127.0.0.1:9/")


def test_a_forked_worker_does_not_reuse_its_parents_client(openai_settings: LLMStub) -> None:
    parent = llm_provider_from_settings()
    with mock.patch("agent.llm.providers.os.getpid", return_value=-1):
        child = llm_provider_from_settings()
    assert child is not parent
    assert llm_provider_from_settings() is parent
