"""The report's hand-written SQL, for PostgreSQL and SQLite alike: JSON functions, instants, parameters.

A statement here returns its rows as JSON text (one aggregate per part), so Python parses a few
strings, not thousands of row tuples. Only table names, placeholders and function names are
formatted into the SQL; every value is a parameter.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from projects.models import Project
from tasks.models import Task, TaskActivity

from .scope import ReportScope, ReportWindows


def postgres() -> bool:
    return connection.vendor == "postgresql"


def names() -> dict[str, str]:
    """The tables and the JSON functions of this database, to format into a statement."""
    quote = connection.ops.quote_name
    tables = {"task": quote(Task._meta.db_table), "activity": quote(TaskActivity._meta.db_table),
              "project": quote(Project._meta.db_table), "user": quote(get_user_model()._meta.db_table)}
    if postgres():
        return {**tables, "obj": "json_build_object", "arr": "json_build_array"}
    return {**tables, "obj": "json_object", "arr": "json_array"}


def json_rows(value: str, order: str) -> str:
    """The JSON array of `value` over a query's rows, as text ('[]' or NULL when there are none).

    PostgreSQL orders the array; SQLite (json_group_array takes no ORDER BY before 3.44) leaves the
    order to the caller.
    """
    if postgres():
        return f"CAST(json_agg({value} ORDER BY {order}) AS TEXT)"
    return f"json_group_array({value})"


def instant(column: str) -> str:
    """An instant column as ISO 8601 text with its offset (SQLite keeps naive UTC text)."""
    return column if postgres() else f"({column} || '+00:00')"


def parsed(text: str | None) -> Any:
    """A JSON part of a result row; an empty aggregate (NULL on PostgreSQL) is an empty list."""
    return json.loads(text) if text else []


def _at(value: datetime) -> Any:
    """An instant as the ORM would pass it to this database (SQLite keeps naive UTC text)."""
    return connection.ops.adapt_datetimefield_value(value)


def report_params(scope: ReportScope, windows: ReportWindows) -> tuple[str, dict[str, Any]]:
    """The scope's projects as a run of placeholders, and every value a report statement names.

    Per week n (0: the reported week, 1: the week before): start{n}, end{n}, its end as an ISO date
    for text comparisons (end_date{n}) and as a date (day{n}). An empty scope matches no project.
    """
    projects = ", ".join(f"%(p{i})s" for i in range(len(scope.project_ids))) or "NULL"
    params: dict[str, Any] = {"done": str(Task.Status.DONE), **{f"p{i}": pk for i, pk in enumerate(scope.project_ids)}}
    for n, window in enumerate((windows.current, windows.previous)):
        params.update({f"start{n}": _at(window.start), f"end{n}": _at(window.end),
                       f"end_date{n}": window.end_date.isoformat(),
                       f"day{n}": connection.ops.adapt_datefield_value(window.end_date)})
    return projects, params


def fetch_one(sql: str, params: dict[str, Any]) -> tuple[Any, ...]:
    """The one row a statement returns."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    assert row is not None
    return tuple(row)
