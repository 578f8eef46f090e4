"""The weekly report's tools: its size, its one read and the read's three parts as reading tools' results.

The report is read in one statement (reports.collect.report_read); each of its three parts (the
tasks, the history, the grouped counts) is then handed to the step runner as a reading tool's
result, ``{"count", "items"}`` like every reading tool, so a large part is stored as an artifact
and later steps bind its rows instead of carrying them.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reports.collect import ReportRead, report_read, scope_size
from reports.scope import ReportScope, ReportWindows


def report_size(scope: ReportScope) -> int:
    """The number of tasks a report over the scope reads from."""
    return scope_size(scope)


def weekly_report_read(*, scope: ReportScope, windows: ReportWindows) -> ReportRead:
    """The week's rows, grouped counts and recount, in one statement (see reports.collect.report_read)."""
    return report_read(scope=scope, windows=windows)


# The reading steps a report's parts are handed to the runner as: (step, tool, part of the read).
REPORT_PARTS = (("s1", "weekly_report_tasks", "tasks"), ("s2", "weekly_report_events", "events"),
                ("s3", "weekly_report_counts", "counted"))


def report_part(read: ReportRead, part: str) -> Callable[..., dict[str, Any]]:
    """One part of a read as a reading tool's result: the tasks, the history or the grouped counts."""
    items: list[dict[str, Any]] = getattr(read, part)

    def tool(**_: Any) -> dict[str, Any]:
        return {"count": len(items), "items": items}

    return tool
