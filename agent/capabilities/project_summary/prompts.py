"""project_summary in words, in each language of a request: the template answer, the figures for the polish,
and the card's labels. Every number in them is one of the checked figures."""
from __future__ import annotations

from typing import Any

from agent.context.words import quote_user_text
from agent.words.language import in_each_language
from pm_assistant.dates import date_shown
from pm_assistant.markdown import quoted
from reports.scope import ALL_PROJECTS

SHOWN = 3

WORDS = in_each_language(
    en={"all": ALL_PROJECTS, "join": ", ", "more": "and {n} more",
        "head": "{scope}, this week so far ({week}, from {monday}): {open} open tasks and {done} done; "
                "{overdue} overdue and {blocked} blocked now.",
        "finished": "Finished this week: {n}{lines}.", "slipped": "Due dates slipped this week: {n}{lines}.",
        "lines": " ({lines})", "risks": "Top risks: {lines}.", "no_risks": "No open task shows a delay risk.",
        "risk": "{key} {title} ({score}: {why})", "overloaded": "Overloaded: {names}.",
        "no_overload": "Nobody is overloaded.", "person": "{name} ({open} open, {overdue} overdue)",
        "looked_at": "Looked at {scope}: this week's report ({week}, its figures checked against a recount), the "
                     "delay risk of its {open} open tasks, and the task counters (the three agree on {open} open "
                     "tasks), as of {today}.",
        "f_open": "Open", "f_done": "Done", "f_finished": "Finished this week", "f_slipped": "Slipped this week",
        "risks_label": "Top risks", "overloaded_label": "Overloaded", "report": "This week's report",
        "open_list": "{name}'s open tasks", "moves": "Moves"},
    zh={"all": "我的全部项目", "join": "、", "more": "另有 {n} 个",
        "head": "{scope}，本周截至目前（{week}，自 {monday} 起）：{open} 个未完成的任务，{done} 个已完成；"
                "目前 {overdue} 个逾期，{blocked} 个受阻。",
        "finished": "本周完成 {n} 个{lines}。", "slipped": "本周截止日期推迟 {n} 个{lines}。",
        "lines": "（{lines}）", "risks": "风险最高：{lines}。", "no_risks": "没有未完成的任务有延期风险。",
        "risk": "{key} {title}（{score} 分：{why}）", "overloaded": "负担过重：{names}。",
        "no_overload": "没有人负担过重。", "person": "{name}（{open} 个未完成，{overdue} 个逾期）",
        "looked_at": "查看了 {scope}：本周报告（{week}，数字已与重新计数核对）、{open} 个未完成任务的延期风险，"
                     "以及任务计数（三者一致：{open} 个未完成），以 {today} 为准。",
        "f_open": "未完成", "f_done": "已完成", "f_finished": "本周完成", "f_slipped": "本周推迟",
        "risks_label": "风险最高", "overloaded_label": "负担过重", "report": "本周报告",
        "open_list": "{name} 的未完成任务", "moves": "下一步"},
)


def scope_words(scope: str, language: str) -> str:
    return WORDS[language]["all"] if scope == ALL_PROJECTS else scope  # type: ignore[index]


def _tasks(rows: list[dict[str, Any]], n: int, words: dict[str, str]) -> str:
    if not n:
        return ""
    named = [f"{r['key']} {quoted(r['title'])}" for r in rows]
    if n > len(rows):
        named.append(words["more"].format(n=n - len(rows)))
    return words["lines"].format(lines=words["join"].join(named))


def summary_text(r: dict[str, Any], *, scope: str, language: str) -> str:
    """The template answer: the head figures, finished and slipped, the top risks, who is overloaded."""
    words = WORDS[language]  # type: ignore[index]
    risk_join = "；" if language == "zh" else "; "
    why_join = "，" if language == "zh" else ", "
    risks = [words["risk"].format(key=t["key"], title=quoted(t["title"]), score=t["score"],
                                  why=why_join.join(t["why"])) for t in r["items"]]
    people = [words["person"].format(**p) for p in r["overloaded"]]
    days = {"monday": date_shown(r["monday"]), "today": date_shown(r["today"])}  # as the pages write dates
    parts = [words["head"].format(scope=scope_words(scope, language), **{**r, **days}),
             words["finished"].format(n=r["completed"], lines=_tasks(r["finished"], r["completed"], words)),
             words["slipped"].format(n=r["slipped"], lines=_tasks(r["moved"], r["slipped"], words)),
             words["risks"].format(lines=risk_join.join(risks)) if risks else words["no_risks"],
             words["overloaded"].format(names=words["join"].join(people)) if people else words["no_overload"]]
    return ("" if language == "zh" else " ").join(parts)


def summary_figures(r: dict[str, Any], *, scope: str) -> list[str]:
    """The figures as lines for the polish prompt: counts, the risks' scores and reasons, the overloaded people
    (no task titles, no ids)."""
    lines = [f"scope: {quote_user_text(scope_words(scope, 'en'), 80)}",
             f"this week so far: {r['week']}, from {date_shown(r['monday'])}", f"as of {date_shown(r['today'])}",
             f"open tasks: {r['open']}", f"done tasks: {r['done']}", f"overdue now: {r['overdue']}",
             f"blocked now: {r['blocked']}",
             f"finished this week: {r['completed']}", f"due dates slipped this week: {r['slipped']}"]
    lines += [f"risk rank {n}: score {t['score']} ({t['level']}): {', '.join(t['why'])}"
              for n, t in enumerate(r["items"], 1)]
    lines += [f"overloaded: {p['name']} with {p['open']} open, {p['overdue']} overdue" for p in r["overloaded"]]
    return lines or ["nothing to report"]
