"""Risk in words: the template paragraph and the figures the polish may use (no ids, no titles)."""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings

from pm_assistant.dates import date_shown
from pm_assistant.markdown import quoted
from reports.scope import ALL_PROJECTS

from .score import Factor, RiskReport, TaskRisk


def _why(task: TaskRisk) -> str:
    return ", ".join(f.words for f in task.factors)


def risk_text(report: RiskReport) -> str:
    """One paragraph: how many open tasks are at which level, and the riskiest one with its reasons."""
    levels = report.levels()
    if not report.tasks:
        return (f"{report.scope_label}: no open task shows a delay risk today "
                f"({report.open_tasks} open tasks checked on {date_shown(report.today)}).")
    top = report.tasks[0]
    verb = "is" if levels["high"] == 1 else "are"
    # The levels and the tasks with no risk add up to the open tasks.
    calm = report.open_tasks - sum(levels.values())
    levels_words = f"{levels['high']} {verb} at high risk, {levels['medium']} at medium risk"
    levels_words += f", {levels['low']} at low risk and {calm} at none" if calm else f" and {levels['low']} at low risk"
    day = date_shown(report.today)
    return (f"{report.scope_label}: of {report.open_tasks} open tasks, {levels_words} (checked on {day}). "
            f"The riskiest is {top.key} {quoted(top.title)}, scored {top.score}: {_why(top)}.")


# Each factor's reason in Chinese, from its value (the figures are the same as the English words').
_WHY_ZH: dict[str, Callable[[Factor], str]] = {
    "overdue": lambda f: f"逾期 {f.value} 天",
    "due_soon_open_subtasks": lambda f: f"{settings.RISK_DUE_SOON_DAYS} 天内到期，仍有 {f.value} 个未完成的子任务",
    "inactive": lambda f: f"{f.value} 天没有任何活动",
    "blocked": lambda f: "受阻",
    "parent_at_risk": lambda f: "父任务受阻" if f.value == "blocked" else "父任务已逾期",
    "assignee_load": lambda f: f"负责人手上有 {f.value} 个未完成的任务",
    "due_slips": lambda f: f"截止日期被推迟了 {f.value} 次",
}


def factor_words(factor: Factor, language: str) -> str:
    """A factor's reason in the language of the request (English when it has no Chinese words)."""
    return _WHY_ZH[factor.name](factor) if language == "zh" and factor.name in _WHY_ZH else factor.words


def risk_text_zh(report: RiskReport) -> str:
    """The same paragraph in Chinese, for a request written in Chinese."""
    levels = report.levels()
    scope = "我的全部项目" if report.scope_label == ALL_PROJECTS else report.scope_label
    if not report.tasks:
        day = date_shown(report.today)
        return f"{scope}：今天没有未完成的任务有延期风险（{day} 检查了 {report.open_tasks} 个未完成的任务）。"
    top = report.tasks[0]
    calm = report.open_tasks - sum(levels.values())
    levels_words = f"{levels['high']} 个高风险，{levels['medium']} 个中风险，{levels['low']} 个低风险"
    levels_words += f"，{calm} 个无风险" if calm else ""
    why = "，".join(factor_words(f, "zh") for f in top.factors)
    return (f"{scope}：{report.open_tasks} 个未完成的任务中，{levels_words}（{date_shown(report.today)} 检查）。"
            f"风险最高的是 {top.key} {quoted(top.title)}，{top.score} 分：{why}。")


# The paragraph by the language of the request (agent.words.language): one template per language, all here.
RISK_TEXTS: dict[str, Callable[[RiskReport], str]] = {"en": risk_text, "zh": risk_text_zh}


def risk_figures(report: RiskReport) -> list[str]:
    """The figures as lines of words for the polish prompt: counts and each top task's reasons, by rank."""
    levels = report.levels()
    lines = [f"checked on {date_shown(report.today)}", f"open tasks: {report.open_tasks}",
             *(f"{level} risk: {count}" for level, count in levels.items()),
             f"no risk: {report.open_tasks - sum(levels.values())}"]
    lines += [f"rank {rank}: score {t.score} ({t.level}): {_why(t)}" for rank, t in enumerate(report.top(), 1)]
    return lines
