"""Change the Celery app's settings for one test, and drop what it built from the old ones.

The app caches its broker connection pool, its producer pool and its result backend the
first time they are used. Updating ``conf`` alone leaves a later ``apply_async`` publishing
to the broker an earlier test configured (an in-memory one, say) while a worker listens on
Redis, so every change of broker or backend goes through :func:`celery_configured`.
"""
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pm_assistant.celery import app as celery_app

_CONNECTION_SETTINGS = {"broker_url", "result_backend"}


def _drop_cached_connections() -> None:
    # Only the references: the pools themselves live in kombu's registry, keyed by URL.
    celery_app._pool = None
    amqp = celery_app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    celery_app._backend_cache = None
    celery_app._local.__dict__.pop("backend", None)


@contextmanager
def celery_configured(**changes: Any) -> Iterator[None]:
    saved = {key: celery_app.conf[key] for key in changes}
    reconnect = bool(_CONNECTION_SETTINGS & changes.keys())
    celery_app.conf.update(changes)
    if reconnect:
        _drop_cached_connections()
    try:
        yield
    finally:
        celery_app.conf.update(saved)
        if reconnect:
            _drop_cached_connections()
