"""Load what the first request would otherwise load: the URLconf (every pattern compiled), the graph, the
tokenizer, the templates, the models' field caches, the regexes Django compiles lazily and the LLM SDK.

gunicorn calls it in the master after the app is preloaded (pm_assistant/gunicorn_conf.py), then presses
a quick button there (rehearse_quick_button), so every forked worker starts warm and shares these pages
with the master; `celery worker` calls it before it takes its first job (pm_assistant/celery.py).
"""
from __future__ import annotations

import gc
import logging
import sys
import uuid
from pathlib import Path
from typing import Any, cast

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.urls import NoReverseMatch, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter, UUIDConverter
from django.utils.functional import SimpleLazyObject
from django.utils.module_loading import import_string

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


def _url_patterns(resolver: URLResolver | None = None) -> int:
    """Compile every URL pattern's regex (resolving a path compiles only those tried before it matches)."""
    count = 0
    for entry in (resolver or get_resolver()).url_patterns:
        entry.pattern.regex  # noqa: B018 - compiled and kept on first read
        count += 1
        if isinstance(entry, URLResolver):
            count += _url_patterns(entry)
    return count


def _url_reversals() -> int:
    """Reverse every named page and API URL once: reversing checks the result against a regex built for
    the pattern, which Python compiles (and caches) on its first use. Each argument is a sample its
    converter accepts (an int, a UUID, else a word); a name that refuses them is skipped."""
    samples = {IntConverter: 1, UUIDConverter: uuid.UUID(int=1)}
    resolver = get_resolver()
    count = 0
    for name in [key for key in resolver.reverse_dict if isinstance(key, str)]:
        for possibilities, _, _, converters in resolver.reverse_dict.getlist(name):
            for _, params in possibilities:
                try:
                    reverse(name, kwargs={p: samples.get(type(converters.get(p)), "x") for p in params})
                    count += 1
                except NoReverseMatch:
                    pass
    return count


def _model_meta() -> None:
    """Fill each model's field caches: the relation tree, reverse relations and field maps are built lazily."""
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        meta.get_fields(include_hidden=True)
        meta.related_objects  # noqa: B018
        meta.fields_map  # noqa: B018
        meta.db_returning_fields  # noqa: B018


def _lazy_regexes() -> int:
    """Compile the regexes Django's modules (and ours) declare lazily with _lazy_re_compile, at module
    level or on a class (SQLCompiler.ordering_parts is read by every query with an ORDER BY)."""
    for connection in connections.all():
        connection.ops.compiler("SQLCompiler")  # imports the backend's compiler module, connecting to nothing
    count = 0
    for module in list(sys.modules.values()):
        # The module's namespace, not its attributes: some packages (celery) import a submodule when an
        # attribute is read.
        names = getattr(module, "__dict__", None)
        if not isinstance(names, dict):
            continue
        for value in list(names.values()):
            for candidate in (value, *vars(value).values()) if isinstance(value, type) else (value,):
                # type(), not isinstance(): a lazy object answers isinstance() for what it wraps, set up.
                if type(candidate) is SimpleLazyObject and getattr(
                        object.__getattribute__(candidate, "_setupfunc"), "__qualname__", "").startswith(
                        "_lazy_re_compile."):
                    candidate.pattern  # noqa: B018 - the first attribute read compiles it
                    count += 1
    return count


def _formats_and_context_processors() -> None:
    """Load the default language's date formats, the time zone and the engines' context processors, all
    read lazily by the first page a process renders."""
    from django.template import engines
    from django.template.backends.django import DjangoTemplates
    from django.utils import formats, timezone, translation

    with translation.override(settings.LANGUAGE_CODE):
        formats.get_format("DATE_FORMAT")
    timezone.get_default_timezone()
    for engine in engines.all():
        if isinstance(engine, DjangoTemplates):
            engine.engine.template_context_processors  # noqa: B018 - a cached property


def warm_up() -> None:
    """Import and build the request path's lazy parts; leave no database connection open."""
    from langchain_core.callbacks.manager import CallbackManager

    from agent.context.tokens import token_count
    from agent.graph.graph import compiled_graph
    from agent.llm.providers import llm_provider_from_settings

    # Resolving populates every URL pattern, which imports each app's views, serializers and forms;
    # reversing one name builds the table every {% url %} of a page reads.
    get_resolver().resolve("/")
    reverse("task-list")
    # Each node of the compiled graph joins its step and its writers into one runnable on first use;
    # done here, every run (each a shallow copy sharing the nodes, agent.graph.graph.graph_for) finds it.
    for node in compiled_graph().nodes.values():
        node.node  # noqa: B018 - a cached property
    token_count("warm up the tokenizer")
    llm_provider_from_settings()  # imports the openai SDK when it is the configured provider
    # A graph run configures its callbacks, which imports LangSmith's tracing helpers on first use.
    CallbackManager.configure()
    # Each thread makes its own cache client on first use; the backend's module can be imported now.
    for cache in settings.CACHES.values():
        import_string(cache["BACKEND"])
    # The template engine loads its tag libraries (Markdown among them) when first used; each page's
    # template is parsed once and kept by the cached loader.
    _templates()
    _url_patterns()
    _url_reversals()
    _model_meta()
    # The message storage and the session serializer are imported by the first request that uses them.
    import_string(settings.MESSAGE_STORAGE)
    import_string(settings.SESSION_SERIALIZER)
    _lazy_regexes()
    _formats_and_context_processors()
    # The database pool object, not opened (psycopg_pool imported, the connection parameters built: 9 ms
    # a worker paid as it started). Each worker opens it and its connections itself (warm_database).
    for connection in connections.all():
        if getattr(connection, "pool", None) is not None:
            from pm_assistant.warm_connection import every_table

            every_table()  # the statement each pooled connection runs as it opens
    # A connection opened in the master would be shared by the forked workers: close it first.
    connections.close_all()


def release_connections() -> None:
    """Close every connection and pool this process opened, leaving the database pool object built but
    not opened: a forked process must not share a socket, a pool's threads or its locks with its parent."""
    from agent.graph.checkpointer import checkpointer_pools_close

    connections.close_all()
    for connection in connections.all():
        if getattr(connection, "pool", None) is not None:
            pooled = cast(Any, connection)  # PostgreSQL's wrapper: the only one with a pool
            pooled.close_pool()
            pooled.pool  # noqa: B018 - a new pool object, not opened
    checkpointer_pools_close()


def freeze_for_fork() -> None:
    """Put every object the master holds in the collector's permanent generation, just before it forks.

    A forked worker's collector then never walks the preloaded objects (the graph, the SDKs, Django's
    caches: about 195 000 after warm_up). Otherwise its first full collection, due within its first requests
    as they allocate, reads and writes the header of each one, copying every page they sit on out of
    the memory it shares with the master (Python's gc.freeze documentation describes the pattern).
    """
    gc.collect()
    gc.freeze()


class _Rehearsed(Exception):
    """Ends the rehearsal's transaction: everything it wrote is rolled back."""


def _rehearsal_host() -> str:
    """A host name the app accepts (ALLOWED_HOSTS), for a request that never leaves the process."""
    for host in settings.ALLOWED_HOSTS:
        if host != "*":
            return host.lstrip(".")
    return "localhost"


def rehearse_quick_button() -> None:
    """Press one quick button ("my overdue") in this process, as a user made for it, and roll it all back.

    gunicorn's master calls it after warm_up (pm_assistant/gunicorn_conf.py on_starting): whatever the
    assistant's path builds on first use (the ORM's and the graph's lazily made parts, the interpreter's
    specialised bytecode) is then built once, in the memory every worker inherits.
    It goes through the whole stack (middleware, session, the API view, the graph, the JSON response)
    with Django's in-process client: nothing is sent over the network. Nothing it writes stays: the user,
    the session, the conversation, the run and its trace are written inside one transaction that is rolled
    back (sequences may skip a number). A failure is logged, never raised: the worker starts either way.
    """
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client

    body = {"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench"}}
    try:
        with transaction.atomic():
            user = get_user_model().objects.create(username=f"warm-up-{uuid.uuid4().hex}")
            client = Client(HTTP_HOST=_rehearsal_host(), secure=True)
            client.force_login(user)
            response = client.post(reverse("assistant-request"), body, content_type="application/json")
            if response.status_code != 200:
                raise RuntimeError(f"the quick button answered {response.status_code}: {response.content[:200]!r}")
            raise _Rehearsed
    except _Rehearsed:
        pass
    except Exception:
        logger.warning("quick-button rehearsal failed; the worker starts without it", exc_info=True)
    finally:
        connections.close_all()


def warm_database() -> None:
    """Open this process's PostgreSQL pool and wait for its first connection, not for all of them.

    The pool opens its connections in its own threads, each naming every table as it opens
    (pm_assistant/warm_connection.py); a request that reaches a worker while it starts waits for
    the first connection ready, and the others open beside it. Without a pool (SQLite, or
    DB_POOL_SIZE=0) each thread opens its own connection on its first request and this does nothing.
    """
    pool = getattr(connections["default"], "pool", None)
    if pool is None:
        return
    from psycopg_pool import PoolTimeout

    pool.open(wait=False)
    try:
        with pool.connection(timeout=10):
            pass
    except PoolTimeout as error:
        # The worker starts anyway; its requests wait for the pool when they need the database.
        logger.warning("database pool not open: %s", error)
