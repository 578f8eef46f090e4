"""A pooled PostgreSQL connection that has named every table before the pool hands it out.

A new server connection loads a table's catalog entries the first time a statement names it, a few
milliseconds per table. settings.py gives this class to the pool (psycopg_pool's `connection_class`),
so each connection pays that once, while the pool opens it in its own threads: when a worker starts,
after the pool replaces a connection that grew old or broke, never inside a request. Every table is
named in one round trip of `SELECT NULL FROM … LIMIT 0` statements, which read no row.
"""
from __future__ import annotations

import logging
from functools import cache
from typing import Any, Self

import psycopg
from psycopg import sql

logger = logging.getLogger(__name__)


@cache
def every_table() -> sql.Composed:
    """One statement per model table, each reading no row."""
    from django.apps import apps

    return sql.SQL("; ").join(sql.SQL("SELECT NULL FROM {} LIMIT 0").format(sql.Identifier(table))
                              for table in sorted({model._meta.db_table for model in apps.get_models()}))


class WarmConnection(psycopg.Connection[Any]):
    """psycopg's connection, which names every table as soon as it is open."""

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
        connection = super().connect(conninfo, **kwargs)
        try:
            connection.execute(every_table())
        except psycopg.Error as error:
            # A database not migrated yet has no tables to name: the connection serves as it is.
            logger.warning("database connection not warmed: %s", error)
        if not connection.autocommit:
            connection.rollback()
        return connection
