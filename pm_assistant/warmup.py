"""Load what the first request would otherwise load: the URLconf, the graph, the tokenizer, the LLM SDK.

gunicorn calls it in the master after the app is preloaded (pm_assistant/gunicorn_conf.py), so every
forked worker starts warm and shares these pages with the master; `celery worker` calls it before it
takes its first job (pm_assistant/celery.py).
"""
from __future__ import annotations

from django.db import connections
from django.urls import get_resolver


def warm_up() -> None:
    """Import and build the request path's lazy parts; leave no database connection open."""
    from agent.assembler.tokens import token_count
    from agent.graph.graph import compiled_graph
    from agent.llm.providers import llm_provider_from_settings

    # Resolving populates every URL pattern, which imports each app's views, serializers and forms.
    get_resolver().resolve("/")
    compiled_graph()
    token_count("warm up the tokenizer")
    llm_provider_from_settings()  # imports the openai SDK when it is the configured provider
    # A connection opened in the master would be shared by the forked workers: close it first.
    connections.close_all()
