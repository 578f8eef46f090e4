"""project_summary: the report, risk and workload pipelines' figures, checked → template → optional polish.

The figures come from this week's weekly report (verified by its own recount), the delay-risk scores
and the database's task counters; the three count the open tasks independently and must agree, or
the run ends with a figures_mismatch alert and no summary. The model, where one is configured, only
rewrites the template from those figures, held to their numbers (agent.capabilities.common.polish).
"""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.common.fidelity import Allowed
from agent.capabilities.common.outcome import done, failed
from agent.capabilities.common.polish import ReportInput, polish
from agent.capabilities.common.scope import Covered, request_covers
from agent.capabilities.common.task_links import open_tasks_url, report_url
from agent.models import Alert
from agent.runtime import RunContext
from agent.words.language import language_of
from pm_assistant.dates import date_shown
from reports.pipeline import FiguresDisagree

from .prompts import WORDS, summary_figures, summary_text
from .tools import summary_read


def project_summary(state: ReportInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Sum up the page's project (or the one named): counts, this week, the top risks and who is overloaded."""
    steps, recorder = runtime.context.tools, runtime.context.recorder
    language = language_of(state.get("message"))
    covered = request_covers(runtime, state["exec_ctx"], state["route"].slots, language, node="summary_collect",
                             refused="The summary could not start")
    if not isinstance(covered, Covered):
        return covered
    scope = covered.scope
    try:
        steps.read("s1", "project_summary", summary_read, scope=lambda _: list(scope.project_ids),
                   project_id=covered.project_id, language=language)
    except FiguresDisagree as exc:
        recorder.alert(Alert.Kind.FIGURES_MISMATCH, exc.message, key=f"summary:{scope.label}",
                       disagreements=[vars(d) for d in exc.disagreements])
        return failed(exc.message, exc.code)
    r, words = steps.data("s1"), WORDS[language]
    recorder.node("summary_template", open=r["open"], done=r["done"], week=r["week"])
    template = summary_text(r, scope=scope.label, language=language)
    recorder.node("summary_polish")
    figures = summary_figures(r, scope=scope.label)
    reply = polish(runtime, state, what="project summary", template=template, figures=figures,
                   allowed=Allowed.stated_in(figures))
    label = covered.label(words["all"])
    moves = [{"label": words["report"], "url": report_url(project_id=scope.project_id)}]
    moves += [{"label": words["open_list"].format(name=p["name"]),
               "url": open_tasks_url(assignee=p["id"], project_id=scope.project_id)} for p in r["overloaded"]]
    return done(reply, polished=reply != template, summary={
        "scope": scope.label, "project_id": scope.project_id, "week": r["week"], "today": r["today"],
        "figures": [{"label": words["f_open"], "n": r["open"]}, {"label": words["f_done"], "n": r["done"]},
                    {"label": words["f_finished"], "n": r["completed"]},
                    {"label": words["f_slipped"], "n": r["slipped"]}],
        "top": [{**t, "why": ("，" if language == "zh" else ", ").join(t["why"])} for t in r["items"]],
        "risks_label": words["risks_label"], "overloaded_label": words["overloaded_label"],
        "overloaded": [{**p, "url": open_tasks_url(assignee=p["id"], project_id=scope.project_id)}
                       for p in r["overloaded"]],
        "looked_at": words["looked_at"].format(scope=label, week=r["week"], open=r["open"],
                                               today=date_shown(r["today"])),
        "moves": moves, "moves_label": words["moves"]})
