"""After repeated model failures the assistant answers at once, for every worker, until the cool-down ends."""
from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agent.llm.breaker import CircuitBreaker
from agent.llm.providers import llm_provider_from_settings
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.gunicorn_server import manage, server_env
from tests.llm_stub import LLMStub

SLOTS = {"operation": None, "task_id": None, "title": None, "status": None, "priority": None,
         "due_date": None, "scope": None, "expected_title": None, "expected_status": None,
         "status_filter": [], "priority_filter": [], "assignee_me": True, "preset": None}


@pytest.fixture
def stub(openai_settings: LLMStub, settings: Any) -> LLMStub:
    settings.LLM_MAX_RETRIES = 0
    settings.LLM_BREAKER_FAILURES = 3
    settings.LLM_BREAKER_COOLDOWN_SECONDS = 2
    # Forget failures an earlier test on the same port left; not cache.clear(), which on Redis
    # would empty the database other workers' queues and results live in.
    provider = llm_provider_from_settings()
    CircuitBreaker(f"{provider.name}:{provider.endpoint}").record_success()
    return openai_settings


def _ask(user: User) -> tuple[dict[str, Any], float]:
    client = APIClient()
    client.force_authenticate(user)
    started = time.monotonic()
    response = client.post("/api/assistant/requests/", {"message": "show my tasks",
                                                        "page_context": {"page": "home", "origin": "sidebar"}},
                           format="json")
    assert response.status_code == 200, response.content
    return response.json(), time.monotonic() - started


def test_repeated_failures_open_the_breaker_then_it_closes(stub: LLMStub, alice: User, website: Project) -> None:
    task_create(actor=alice, project=website, title="Checklist item", assignee=alice)
    for _ in range(3):
        stub.push_error(503, "overloaded")
        body, _ = _ask(alice)
        assert body["status"] == "error" and body["error_code"] == "llm_unavailable"
    assert stub.calls == 3

    body, elapsed = _ask(alice)

    assert stub.calls == 3, "an open breaker must not call the model"
    assert body["status"] == "error" and body["error_code"] == "llm_unavailable"
    assert "model is unavailable" in body["reply"] and "Nothing was changed" in body["reply"]
    assert elapsed < 1.0
    assert Task.objects.get().status == "todo"

    time.sleep(2.1)  # the cool-down passes: the next call is tried, succeeds, and closes the breaker
    stub.push_json({"capability": "query", "confidence": 0.9, "slots": SLOTS}).push_text("One task.")
    body, _ = _ask(alice)
    assert body["status"] == "done" and body["reply"] == "One task."
    assert stub.calls == 5


def test_a_success_resets_the_count(stub: LLMStub, alice: User, website: Project) -> None:
    for _ in range(2):
        stub.push_error(500)
        _ask(alice)
    stub.push_json({"capability": "clarify", "confidence": 0.9, "slots": SLOTS})
    _ask(alice)
    stub.push_error(500)
    _ask(alice)
    stub.push_json({"capability": "clarify", "confidence": 0.9, "slots": SLOTS})
    body, _ = _ask(alice)
    assert body["status"] == "needs_clarification" and stub.calls == 5


def test_the_open_breaker_is_seen_by_another_process(settings: Any, redis_url: str) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url}}
    settings.LLM_BREAKER_FAILURES = 2
    endpoint = f"openai:http://127.0.0.1:9/{time.time_ns()}"
    breaker = CircuitBreaker(endpoint)
    breaker.record_failure()
    breaker.record_failure()
    assert breaker.is_open()
    code = f"from agent.llm.breaker import CircuitBreaker; print(CircuitBreaker({endpoint!r}).is_open())"
    assert manage(server_env(REDIS_URL=redis_url), "shell", "-c", code).split()[-1] == "True"
    breaker.record_success()
    assert manage(server_env(REDIS_URL=redis_url), "shell", "-c", code).split()[-1] == "False"


def test_a_cache_outage_lets_calls_through(settings: Any) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0"}}
    breaker = CircuitBreaker("openai:unreachable-cache")
    breaker.record_failure()
    assert not breaker.is_open()
