"""workload in words, in each language of a request: the answer, the chart's labels and the moves."""
from __future__ import annotations

from typing import Any

from agent.words.language import in_each_language
from pm_assistant.dates import date_shown
from pm_assistant.markdown import quoted
from reports.scope import ALL_PROJECTS

WORDS = in_each_language(
    en={"all": ALL_PROJECTS, "unassigned": "unassigned", "join": " · ",
        "head": "{scope}: {open} open tasks, {overdue} overdue (as of {today}).",
        "none": "{scope}: no open tasks (as of {today}).",
        "most": "{name} has the most: {open} open, {overdue} overdue.",
        "person": "{name} has {open} open tasks in {scope}, {overdue} overdue (as of {today}).",
        "row": "{name} {open}", "row_late": "{name} {open} ({overdue} overdue)",
        "by_person": "By person: {rows}.", "more": "and {n} more",
        "overloaded": "Overloaded (open tasks at least {ratio} × the project's median): {names}.",
        "unknown": "No assignee or member of {scope} is named {names}; here is everyone's load.",
        "chart": "Open tasks per person in {scope}", "bar": "{name}: {open} open, {overdue} overdue",
        "bar_hint": "the list behind this bar", "no_list": "the task list cannot show tasks with no assignee",
        "looked_at": "Looked at the {open} open tasks of {scope}, counted per assignee by the database's counters, "
                     "and the ones due before {today}.",
        "list_of": "{name}'s open tasks", "report": "This week's report", "moves": "Moves",
        "legend_open": "open", "legend_overdue": "overdue"},
    zh={"all": "我的全部项目", "unassigned": "未分配", "join": "，",
        "head": "{scope}：{open} 个未完成的任务，{overdue} 个逾期（{today}）。",
        "none": "{scope}：没有未完成的任务（{today}）。",
        "most": "任务最多的是 {name}：{open} 个未完成，{overdue} 个逾期。",
        "person": "{name} 在 {scope} 有 {open} 个未完成的任务，{overdue} 个逾期（{today}）。",
        "row": "{name} {open} 个", "row_late": "{name} {open} 个（{overdue} 个逾期）",
        "by_person": "按人统计：{rows}。", "more": "另有 {n} 人",
        "overloaded": "负担过重（未完成任务不少于项目中位数的 {ratio} 倍）：{names}。",
        "unknown": "{scope} 中没有叫 {names} 的负责人或成员；以下是所有人的工作量。",
        "chart": "{scope} 每人的未完成任务", "bar": "{name}：{open} 个未完成，{overdue} 个逾期",
        "bar_hint": "这一条背后的任务列表", "no_list": "任务列表无法筛选没有负责人的任务",
        "looked_at": "查看了 {scope} 的 {open} 个未完成任务（按负责人，来自数据库的计数）以及 {today} 之前到期的任务。",
        "list_of": "{name} 的未完成任务", "report": "本周报告", "moves": "下一步",
        "legend_open": "未完成", "legend_overdue": "逾期"},
)
SHOWN = 8  # the people the answer names; the chart shows every one


def person_name(row: dict[str, Any], language: str) -> str:
    return str(row["name"]) if row["name"] is not None else WORDS[language]["unassigned"]  # type: ignore[index]


def workload_text(rows: list[dict[str, Any]], *, result: dict[str, Any], scope: str, language: str,
                  person: dict[str, Any] | None, unknown: list[str], ratio: float) -> str:
    """The answer: one person's load when the message named one, else the totals, who has most and each person."""
    words = WORDS[language]  # type: ignore[index]
    scope = words["all"] if scope == ALL_PROJECTS else scope
    today = date_shown(result["today"])  # as the pages write dates
    out: list[str] = []
    if unknown:
        out.append(words["unknown"].format(scope=scope, names=words["join"].join(quoted(n) for n in unknown)))
    if person is not None:
        out.append(words["person"].format(name=person_name(person, language), open=person["open"],
                                          overdue=person["overdue"], scope=scope, today=today))
    if not result["open_tasks"]:
        return " ".join([*out, words["none"].format(scope=scope, today=today)])
    out.append(words["head"].format(scope=scope, open=result["open_tasks"], overdue=result["overdue_tasks"],
                                    today=today))
    people = [r for r in rows if r["name"] is not None]
    if person is None and people and people[0]["open"]:
        out.append(words["most"].format(name=people[0]["name"], open=people[0]["open"], overdue=people[0]["overdue"]))
    shown = [words["row_late" if r["overdue"] else "row"].format(name=person_name(r, language), open=r["open"],
                                                                  overdue=r["overdue"]) for r in rows[:SHOWN]]
    if len(rows) > SHOWN:
        shown.append(words["more"].format(n=len(rows) - SHOWN))
    out.append(words["by_person"].format(rows=words["join"].join(shown)))
    heavy = [r["name"] for r in rows if r["overloaded"]]
    if heavy:
        out.append(words["overloaded"].format(ratio=f"{ratio:g}", names=words["join"].join(heavy)))
    return " ".join(out)
