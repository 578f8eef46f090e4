"""Load what the first request would otherwise load: the URLconf, the graph, the tokenizer, the templates
and the LLM SDK.

gunicorn calls it in the master after the app is preloaded (pm_assistant/gunicorn_conf.py), so every
forked worker starts warm and shares these pages with the master; `celery worker` calls it before it
takes its first job (pm_assistant/celery.py).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import cast

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.urls import get_resolver, reverse

logger = logging.getLogger(__name__)


def _templates() -> int:
    """Compile every project template into the cached loader (importing the tag libraries on the way)."""
    from django.template.loader import get_template

    compiled = 0
    for backend in settings.TEMPLATES:
        for folder in map(Path, cast(list[str], backend.get("DIRS", []))):
            for path in sorted(folder.rglob("*.html")):
                get_template(path.relative_to(folder).as_posix())
                compiled += 1
    return compiled


def warm_up() -> None:
    """Import and build the request path's lazy parts; leave no database connection open."""
    from agent.assembler.tokens import token_count
    from agent.graph.graph import compiled_graph
    from agent.llm.providers import llm_provider_from_settings

    # Resolving populates every URL pattern, which imports each app's views, serializers and forms;
    # reversing one name builds the table every {% url %} of a page reads.
    get_resolver().resolve("/")
    reverse("task-list")
    compiled_graph()
    token_count("warm up the tokenizer")
    llm_provider_from_settings()  # imports the openai SDK when it is the configured provider
    # The template engine loads its tag libraries (Markdown among them) when first used; each page's
    # template is parsed once and kept by the cached loader.
    _templates()
    # A connection opened in the master would be shared by the forked workers: close it first.
    connections.close_all()


def warm_database() -> None:
    """Open this process's PostgreSQL pool and make each connection plan a read of every table.

    A new server connection loads each table's catalog entries the first time a statement names it;
    done here, in a worker that is starting, a request never pays it. Without a pool (SQLite, or
    DB_POOL_SIZE=0) each thread opens its own connection on its first request and this does nothing.
    """
    pool = getattr(connections["default"], "pool", None)
    if pool is None:
        return
    import psycopg
    from psycopg import sql

    statements = [sql.SQL("SELECT NULL FROM {} LIMIT 0").format(sql.Identifier(model._meta.db_table))
                  for model in apps.get_models()]
    try:
        pool.open(wait=True, timeout=10)
        # The pool hands its idle connections out in turn: min_size borrows visit each one.
        for _ in range(pool.min_size):
            with pool.connection() as connection:
                for statement in statements:
                    connection.execute(statement)
    except (psycopg.Error, OSError) as error:  # the worker starts anyway; requests connect later
        logger.warning("database pool not warmed: %s", error)
