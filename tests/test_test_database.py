"""The test database serves a threaded live server the way production serves gunicorn threads."""
from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection, connections


@pytest.mark.django_db(transaction=True)
def test_threads_read_and_write_at_once_each_on_its_own_connection(alice: User) -> None:
    errors: list[BaseException] = []
    seen: list[int] = []

    def work(n: int) -> None:
        try:
            for i in range(20):
                User.objects.create(username=f"t{n}-{i}")
                seen.append(User.objects.filter(username__startswith=f"t{n}-").count())
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert User.objects.filter(username__startswith="t").count() == 80
    assert max(seen) == 20


@pytest.mark.django_db
def test_sqlite_test_database_is_a_file_not_a_shared_memory_connection() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite test database only")
    name: Any = connection.settings_dict["NAME"]
    assert not connection.is_in_memory_db(), name
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


@pytest.mark.django_db
def test_a_parallel_worker_has_a_database_and_cache_keys_of_its_own() -> None:
    """Under pytest-xdist each worker's test database and cache keys carry its id (gw0, gw1, ...)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        pytest.skip("not on a pytest-xdist worker (make test runs several; PYTEST_WORKERS=0 runs one)")
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "postgresql":
        assert name.endswith(f"_{worker}"), name  # test_<name>_gw0
    else:
        assert f"popen-{worker}" in name, name  # a file in the worker's own temporary folder
    assert cache.make_key("k").startswith(f"{worker}:"), cache.make_key("k")
