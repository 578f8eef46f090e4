"""Pick the LLM provider from settings."""
from __future__ import annotations

from django.conf import settings

from .base import LLMProvider
from .offline import OfflineProvider


def llm_provider_from_settings() -> LLMProvider:
    """Return the configured provider: an OpenAI-compatible endpoint, or offline rules."""
    if settings.LLM_PROVIDER == "openai":
        from .openai_provider import OpenAIProvider

        return OpenAIProvider(
            api_key=settings.OPENAI_API_KEY or "unset",
            base_url=settings.OPENAI_BASE_URL,
            router_model=settings.LLM_ROUTER_MODEL,
            generation_model=settings.LLM_GENERATION_MODEL,
            timeout=settings.LLM_TIMEOUT_SECONDS,
            max_retries=settings.LLM_MAX_RETRIES,
            max_output_chars=settings.LLM_OUTPUT_MAX_CHARS,
        )
    return OfflineProvider()
