"""A project's state in one answer: built from the weekly report, the risk scores and the workload, checked.

Every figure comes from one of the existing pipelines: this week's report (its own recount verifies
it, reports.pipeline), the delay-risk scores (reports.risk) and the workload (reports.workload, from
the database's counters). The three count the open tasks by independent paths (the report's
projection, the risk facts' rows, the counters); they must agree, or no summary is made.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from .figures import TaskLine, WeeklyReport
from .pipeline import FiguresDisagree, weekly_report_build, windows_now
from .risk.assess import risk_assess
from .risk.score import RiskReport, TaskRisk
from .scope import ReportScope
from .verify import Disagreement
from .workload import AssigneeLoad, Workload, workload_for

SUMMARY_RISKS = 3  # the riskiest tasks a summary names
SUMMARY_LINES = 3  # the finished and slipped tasks it names (the rest are counted)


@dataclass(frozen=True)
class ProjectSummary:
    scope_label: str
    project_id: int | None
    report: WeeklyReport  # this week so far, verified
    risk: RiskReport
    workload: Workload

    @property
    def open(self) -> int:
        return self.workload.open_tasks

    @property
    def done(self) -> int:
        return self.workload.done_tasks

    def finished(self) -> tuple[int, list[TaskLine]]:
        """How many tasks were completed this week, and the first of them."""
        return self.report.current.sizes["completed"], self.report.lines("completed")[:SUMMARY_LINES]

    def slipped(self) -> tuple[int, list[TaskLine]]:
        """How many tasks had their due date moved later this week, and the first of them."""
        return self.report.current.sizes["slipped"], self.report.lines("slipped")[:SUMMARY_LINES]

    def risks(self) -> tuple[TaskRisk, ...]:
        return self.risk.top(SUMMARY_RISKS)

    def overloaded(self) -> tuple[AssigneeLoad, ...]:
        return self.workload.overloaded()


def summary_verify(summary: ProjectSummary) -> None:
    """Raise FiguresDisagree unless the report, the risk facts and the counters count the same open tasks."""
    report_open = summary.report.current.counts()["open"]
    found = [Disagreement(f"open ({name})", report_open, n)
             for name, n in (("risk facts", summary.risk.open_tasks), ("counters", summary.workload.open_tasks))
             if n != report_open]
    if found:
        raise FiguresDisagree(found)


def project_summary_build(*, scope: ReportScope, now: datetime | None = None) -> ProjectSummary:
    """This week's verified report, the risk scores and the workload of the scope, checked against each other."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    summary = ProjectSummary(scope_label=scope.label, project_id=scope.project_id,
                             report=weekly_report_build(scope=scope, windows=windows_now("this", now=now)),
                             risk=risk_assess(scope=scope, today=today),
                             workload=workload_for(scope=scope, today=today))
    summary_verify(summary)
    return summary
