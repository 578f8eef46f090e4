"""The task lists' one sort order: by due date, tasks without one last, then by id.

The order is a single key, ``COALESCE(due_date, '9999-12-31')``, then the id as the tiebreaker, so
a position in the list is one row value and "after this task" is one index range on the
expression index ``task_due_key_id`` (migration 0004), on PostgreSQL and SQLite alike.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import BooleanField, DateField, F, Func, Lookup, OrderBy, Value

# The sort key of a task without a due date: after every real date. A literal (not a parameter),
# so the query's expression is the index's expression, word for word.
NO_DUE_DATE = date.max


class DueKey(Func):
    """COALESCE(due_date, '9999-12-31'): a task's due date, or the last date when it has none."""

    template = f"COALESCE(%(expressions)s, '{NO_DUE_DATE.isoformat()}')"

    def __init__(self, **extra: Any) -> None:
        super().__init__(F("due_date"), output_field=DateField(), **extra)


class _Row(Func):
    """``(a, b)``: a row value."""

    template = "(%(expressions)s)"


class RowCompare(Lookup):
    """``(a, b) > (c, d)`` (or ``<``): a row-value comparison, one index range on both databases."""

    def __init__(self, a: Any, b: Any, op: str, c: Any, d: Any) -> None:
        if op not in (">", "<"):
            raise ValueError(f"unsupported comparison {op!r}")
        self.op = op
        super().__init__(_Row(a, b, output_field=BooleanField()), _Row(c, d, output_field=BooleanField()))

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        lhs, lhs_params = compiler.compile(self.lhs)
        rhs, rhs_params = compiler.compile(self.rhs)
        return f"{lhs} {self.op} {rhs}", (*lhs_params, *rhs_params)


def task_order(*, reverse: bool = False) -> tuple[OrderBy, OrderBy]:
    """The list's order (or its reverse, to read a page backwards)."""
    if reverse:
        return DueKey().desc(), F("id").desc()
    return DueKey().asc(), F("id").asc()


def beyond(*, key: date, task_id: int, forward: bool) -> RowCompare:
    """Tasks after the position (key, id) in the list's order, or before it when not forward."""
    return RowCompare(DueKey(), F("id"), ">" if forward else "<", Value(key), Value(task_id))
