"""project_summary's reading tool: the summary's figures from the report, risk and workload pipelines, checked."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from agent.tools.report_tools import report_scope
from reports.risk.text import factor_words
from reports.summary import project_summary_build


def summary_read(*, user: User, project_id: int | None, language: str) -> dict[str, Any]:
    """The scope's open and done tasks, this week's finished and slipped ones, its top risks and who is overloaded.

    Raises FiguresDisagree (reports.pipeline) when the report's recount or the three counts of open tasks differ.
    """
    s = project_summary_build(scope=report_scope(user, project_id))
    f = s.report.current
    completed, finished = s.finished()
    slipped, moved = s.slipped()

    def lines(rows: list[Any]) -> list[dict[str, Any]]:
        return [{"id": t.id, "key": t.key, "title": t.title} for t in rows]

    risks = [{"id": t.id, "key": t.key, "title": t.title, "score": t.score, "level": t.level,
              "why": [factor_words(x, language) for x in t.factors]} for t in s.risks()]
    return {"count": len(risks), "items": risks, "open": s.open, "done": s.done, "week": f.week, "monday": f.monday,
            "today": s.risk.today, "completed": completed, "finished": lines(finished), "slipped": slipped,
            "moved": lines(moved), "overdue": f.sizes["overdue"], "blocked": f.sizes["blocked"],
            "overloaded": [{"id": p.id, "name": p.name, "open": p.open, "overdue": p.overdue} for p in s.overloaded()]}
