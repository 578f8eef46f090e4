"""Risk in words: the template paragraph and the figures the polish may use (no ids, no titles)."""
from __future__ import annotations

from pm_assistant.markdown import quoted

from .score import RiskReport, TaskRisk


def _why(task: TaskRisk) -> str:
    return ", ".join(f.words for f in task.factors)


def risk_text(report: RiskReport) -> str:
    """One paragraph: how many open tasks are at which level, and the riskiest one with its reasons."""
    levels = report.levels()
    if not report.tasks:
        return (f"{report.scope_label}: no open task shows a delay risk today "
                f"({report.open_tasks} open tasks checked on {report.today}).")
    top = report.tasks[0]
    verb = "is" if levels["high"] == 1 else "are"
    # The levels and the tasks with no risk add up to the open tasks.
    calm = report.open_tasks - sum(levels.values())
    levels_words = f"{levels['high']} {verb} at high risk, {levels['medium']} at medium risk"
    levels_words += f", {levels['low']} at low risk and {calm} at none" if calm else f" and {levels['low']} at low risk"
    return (f"{report.scope_label}: of {report.open_tasks} open tasks, {levels_words} (checked on {report.today}). "
            f"The riskiest is {top.key} {quoted(top.title)}, scored {top.score}: {_why(top)}.")


def risk_figures(report: RiskReport) -> list[str]:
    """The figures as lines of words for the polish prompt: counts and each top task's reasons, by rank."""
    levels = report.levels()
    lines = [f"checked on {report.today}", f"open tasks: {report.open_tasks}",
             *(f"{level} risk: {count}" for level, count in levels.items()),
             f"no risk: {report.open_tasks - sum(levels.values())}"]
    lines += [f"rank {rank}: score {t.score} ({t.level}): {_why(t)}" for rank, t in enumerate(report.top(), 1)]
    return lines
