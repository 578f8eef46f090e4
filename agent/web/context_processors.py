"""Template context for the assistant sidebar present on every page."""
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from agent.run.conversations import SEARCH_MAX_CHARS
from pm_assistant.vocabulary import MESSAGE_MAX_CHARS


def assistant(request: HttpRequest) -> dict[str, Any]:
    """Tell templates which LLM provider answers and whether DEBUG is on, so the sidebar labels both."""
    return {"assistant_provider": settings.LLM_PROVIDER, "assistant_offline": settings.LLM_PROVIDER == "offline",
            "debug_mode": settings.DEBUG,
            "assistant_message_max": MESSAGE_MAX_CHARS, "assistant_search_max": SEARCH_MAX_CHARS}
