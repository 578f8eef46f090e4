"""The weekly report's fixed pipeline for the report page: collect once (one read) → project → verify.

The assistant runs the same stages as named steps on its trace (agent/capabilities/weekly_report.py);
this module is the plain server path, with no model anywhere.
"""
from __future__ import annotations

from datetime import datetime

from pm_assistant.errors import ApplicationError

from .collect import report_read
from .figures import WeeklyReport, report_project
from .scope import ReportScope, ReportWindows
from .verify import Disagreement, Recount, figures_disagreements, weeks_recount
from .week import week_resolve


class FiguresDisagree(ApplicationError):
    """The projected figures and the database's own count differ: nothing is reported."""

    code = "figures_mismatch"
    http_status = 500

    def __init__(self, disagreements: list[Disagreement]) -> None:
        named = ", ".join(f"{d.figure} {d.projected} vs {d.recounted}" for d in disagreements[:5])
        super().__init__(f"The report's figures could not be verified ({named}); no report was made.",
                         field="figures")
        self.disagreements = disagreements


def report_verify(report: WeeklyReport, *, scope: ReportScope, windows: ReportWindows,
                  recount: tuple[Recount, Recount] | None = None) -> None:
    """Compare both weeks with the database's recount; raise FiguresDisagree unless every figure agrees.

    `recount` is the one the report's read made in the same statement as its rows; without it, both
    weeks are recounted now.
    """
    current, previous = recount or weeks_recount(scope, windows)
    found = figures_disagreements(report.current, current, with_assignees=True)
    found += [Disagreement(f"previous.{d.figure}", d.projected, d.recounted) for d in
              figures_disagreements(report.previous, previous, with_assignees=False)]
    if found:
        raise FiguresDisagree(found)


def weekly_report_build(*, scope: ReportScope, windows: ReportWindows) -> WeeklyReport:
    """Collect, project and verify one report: one statement whatever the scope's size."""
    read = report_read(scope=scope, windows=windows)
    report = report_project(scope_label=scope.label, project_id=scope.project_id, tasks=read.tasks,
                            events=read.events, counted=read.counted, current=windows.current,
                            previous=windows.previous, now=windows.now)
    report_verify(report, scope=scope, windows=windows, recount=read.recount)
    return report


def windows_now(week_text: str | None, *, now: datetime) -> ReportWindows:
    """The report's weeks for a requested week ("2026-W48", "this", or the last full week by default)."""
    return ReportWindows.for_week(week_resolve(week_text, now=now), now=now)
