"""what_next in words, in each language of a request: the reasons of a task's score and the answer around them."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agent.words.language import in_each_language
from pm_assistant.markdown import quoted
from reports.scope import ALL_PROJECTS


def _days(n: int, one: str, many: str) -> str:
    return (one if n == 1 else many).format(n=n)


# Each part of the score as a reason, from its value (the figures are the database's and the server date's).
REASONS: Mapping[str, Mapping[str, Callable[[Any], str]]] = {
    "en": {"overdue": lambda v: _days(v, "1 day overdue", "{n} days overdue"),
           "due_soon": lambda v: "due today" if v == 0 else _days(v, "due tomorrow", "due in {n} days"),
           "priority": lambda v: f"priority {v}", "holds_up": lambda v: "its parent task waits on it",
           "delay_risk": lambda v: f"delay risk {v}"},
    "zh": {"overdue": lambda v: f"逾期 {v} 天", "due_soon": lambda v: "今天到期" if v == 0 else f"{v} 天后到期",
           "priority": lambda v: f"优先级 {v}", "holds_up": lambda v: "父任务在等它完成",
           "delay_risk": lambda v: f"延期风险 {v} 分"},
}

WORDS = in_each_language(
    en={"all": ALL_PROJECTS, "join": " · ", "nothing": "no deadline, priority or risk stands out",
        "none": "{scope}: you have no open tasks assigned to you (checked on {today}).",
        "head": "{scope}: your next tasks, of {open} open ones assigned to you (ranked on {today}):",
        "line": "{rank}. {key} {title}: {why} (score {score})",
        "looked_at": "Looked at the {open} open tasks assigned to you in {scope}: due dates, priorities, parent "
                     "tasks and delay risk, as of {today}. The score is explained in the usage guide.",
        "open_list": "All my open tasks", "reassign": "Reassign {key}", "moves": "Moves"},
    zh={"all": "我的全部项目", "join": " · ", "nothing": "没有突出的截止日期、优先级或风险",
        "none": "{scope}：没有分配给你的未完成任务（{today} 检查）。",
        "head": "{scope}：分配给你的 {open} 个未完成任务中，接下来该做的（{today} 排序）：",
        "line": "{rank}. {key} {title}：{why}（{score} 分）",
        "looked_at": "查看了 {scope} 中分配给你的 {open} 个未完成任务：截止日期、优先级、父任务和延期风险，"
                     "以 {today} 为准。评分方法见使用说明。",
        "open_list": "我的全部未完成任务", "reassign": "重新分配 {key}", "moves": "下一步"},
)


def reason(parts: list[dict[str, Any]], language: str) -> str:
    """A task's reasons in one line, part by part."""
    words = WORDS[language]  # type: ignore[index]
    return words["join"].join(REASONS[language][p["name"]](p["value"]) for p in parts) or words["nothing"]


def next_up_text(rows: list[dict[str, Any]], *, open_tasks: int, today: str, scope: str, language: str) -> str:
    """The answer: a head line, then one line per task with its reasons (keys are linked by the sidebar)."""
    words = WORDS[language]  # type: ignore[index]
    scope = words["all"] if scope == ALL_PROJECTS else scope
    if not rows:
        return words["none"].format(scope=scope, today=today)
    lines = [words["line"].format(rank=n, key=r["key"], title=quoted(r["title"]), why=reason(r["parts"], language),
                                  score=r["score"]) for n, r in enumerate(rows, 1)]
    return "\n".join([words["head"].format(scope=scope, open=open_tasks, today=today), "", *lines])
