"""Pick the LLM provider from settings."""
from __future__ import annotations

import os
from functools import lru_cache

from django.conf import settings

from .base import LLMProvider
from .offline import OfflineProvider


def llm_provider_from_settings() -> LLMProvider:
    """Return the configured provider: an OpenAI-compatible endpoint, or offline rules."""
    if settings.LLM_PROVIDER == "openai":
        return _openai_provider(
            os.getpid(),
            api_key=settings.OPENAI_API_KEY or "unset",
            base_url=settings.OPENAI_BASE_URL,
            router_model=settings.LLM_ROUTER_MODEL,
            generation_model=settings.LLM_GENERATION_MODEL,
            timeout=settings.LLM_TIMEOUT_SECONDS,
            max_retries=settings.LLM_MAX_RETRIES,
            max_output_chars=settings.LLM_OUTPUT_MAX_CHARS,
        )
    return OfflineProvider()


@lru_cache(maxsize=8)
def _openai_provider(pid: int, *, api_key: str, base_url: str | None, router_model: str, generation_model: str,
                     timeout: float, max_retries: int, max_output_chars: int) -> LLMProvider:
    """One provider per process and settings, shared by every run and thread.

    The SDK client is thread-safe and keeps its HTTP connections alive; building one per run cost a
    new TLS context and connection pool each time (about 40% of a model-routed run's CPU in the
    intent corpus's profile). The process id is part of the key so a forked worker never reuses
    its parent's sockets; the settings are, so a changed endpoint or model gets its own client.
    """
    from .openai_provider import OpenAIProvider

    return OpenAIProvider(api_key=api_key, base_url=base_url, router_model=router_model,
                          generation_model=generation_model, timeout=timeout, max_retries=max_retries,
                          max_output_chars=max_output_chars)
