"""risk: score the open tasks in the database, keep the top page → explain it → template → optional polish.

The score comes from the database and the server clock only; the model, when asked, writes one
paragraph from the scored figures (no titles, no ids) and is held to their numbers.
"""
from __future__ import annotations

from typing import Any

from django.utils import timezone
from langgraph.runtime import Runtime

from agent.capabilities.common.fidelity import Allowed
from agent.capabilities.common.outcome import clarify, done, failed
from agent.capabilities.common.polish import ReportInput, polish
from agent.capabilities.common.scope import ScopeUnclear, request_project_id
from agent.runtime import RunContext
from agent.tools.binding import Binding
from agent.words.language import language_of
from pm_assistant.errors import ApplicationError
from reports.risk.assess import risk_data
from reports.risk.score import risk_explain, risk_rows
from reports.risk.text import RISK_TEXTS, risk_figures

from .pages import risk_pager
from .tools import risk_tasks_for


def risk(state: ReportInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Score the delay risk of the page's project (or all the user's projects) and explain the top of it."""
    ctx = state["exec_ctx"]
    recorder, steps = runtime.context.recorder, runtime.context.tools
    try:
        project_id = request_project_id(runtime, ctx, state["route"].slots, language_of(state.get("message")))
    except ScopeUnclear as exc:
        return clarify(str(exc))
    today = timezone.localdate()

    # The database scores and ranks every open task; the step holds the first page (what the answer
    # shows), the scope's totals and the keyset position of the next page, never every open task. The
    # tool checks the scope (the page's project, or all the user's) and names it.
    recorder.node("risk_collect", project_id=project_id)
    try:
        steps.read("s1", "risk_tasks", risk_tasks_for, scope=lambda read: read["project_ids"],
                   project_id=project_id, today=today)
    except ApplicationError as exc:
        return failed(f"The risk check could not start: {exc.message}", exc.code)

    recorder.node("risk_score", today=today.isoformat(), today_source="server_clock")
    rows = steps.bind("risk_score", {"rows": Binding(from_step="s1", path="$.items[*]")})["rows"] \
        if steps.count("s1") else []
    meta = steps.meta("s1")
    report = risk_explain(risk_rows(rows), open_tasks=meta["count"], levels=meta["levels"], today=today,
                          scope_label=meta["scope"], project_id=project_id)
    language = language_of(state.get("message"))
    data = risk_data(report, language)
    recorder.node("risk_factors", top=[{"key": t["key"], "score": t["score"], "factors": t["factors"]}
                                       for t in data["top"]])

    recorder.node("risk_template")
    template = RISK_TEXTS[language](report)
    recorder.node("risk_polish")
    figures = risk_figures(report)
    reply = polish(runtime, state, what="risk summary", template=template, figures=figures,
                   allowed=Allowed.stated_in(figures), capability="risk", stored=steps.classified["s1"],
                   pager=risk_pager(runtime, step="s1", project_id=project_id, today=today))
    return done(reply, risk=data, polished=reply != template)
