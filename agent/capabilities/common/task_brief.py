"""A question about one task ("what is this task about?"): that task's facts, never a list of others.

The sentence is in the language of the message (agent.words.language); the key, title, dates, priority, people and
project come from the database.
"""
from __future__ import annotations

from typing import Any

from django.utils import timezone
from langgraph.runtime import Runtime

from agent.context.three_views import ExecCtx
from agent.routing.decision import Slots
from agent.runtime import RunContext
from agent.tools import task_tools as tools
from agent.words.language import Language, in_each_language, language_of
from pm_assistant.dates import date_shown
from pm_assistant.errors import ApplicationError
from pm_assistant.markdown import literal, quoted
from pm_assistant.vocabulary import STATUS_LABELS, STATUS_LABELS_ZH
from tasks.filters import TaskFilters

from .outcome import clarify, done, failed
from .task_keys import UntypedId, target_task_id, wrong_typed_key

TEXTS = in_each_language(
    en={"brief": "{task} in {project}: {facts}.{below}", "join": ", ", "due": "due {day}", "late": " (overdue)",
        "assigned": "assigned to {name}", "unassigned": "unassigned",
        "subtask_one": " It has {count} subtask.", "subtask_many": " It has {count} subtasks.",
        "which": "Which task do you mean? Open it, or type its key (for example WEB-25).",
        "no_such_task": "There is no task {key} among your projects.",
        "unreadable": "That task could not be read: {why}",
        "gone": "That task no longer exists, or you cannot see it."},
    zh={"brief": "{task}（{project}）：{facts}。{below}", "join": "，", "due": "截止 {day}", "late": "（已逾期）",
        "assigned": "负责人 {name}", "unassigned": "未分配",
        "subtask_one": "它有 {count} 个子任务。", "subtask_many": "它有 {count} 个子任务。",
        "which": "你指的是哪个任务？请打开它，或输入它的编号（例如 WEB-25）。",
        "no_such_task": "你的项目中没有任务 {key}。",
        "unreadable": "无法读取这个任务：{why}",
        "gone": "这个任务已不存在，或者你看不到它。"},
)


def brief_words(row: dict[str, Any], subtasks: int, language: Language = "en") -> str:
    """One task in a sentence: key, title, status, priority, due date (overdue or not), owner, project."""
    words = TEXTS[language]
    status = STATUS_LABELS_ZH[row["status"]] if language == "zh" else STATUS_LABELS[row["status"]].lower()
    parts = [status, row["priority"]]
    if row["due_date"]:
        late = row["status"] != "done" and row["due_date"] < timezone.localdate().isoformat()
        parts.append(words["due"].format(day=date_shown(row["due_date"])) + (words["late"] if late else ""))
    parts.append(words["assigned"].format(name=literal(row["assignee"])) if row["assignee"] else words["unassigned"])
    below = words["subtask_one" if subtasks == 1 else "subtask_many"].format(count=subtasks) if subtasks else ""
    return words["brief"].format(task=f"{row['key']} {quoted(row['title'])}", project=row["project"],
                                 facts=words["join"].join(parts), below=below)


def task_brief(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots, message: str) -> dict[str, Any]:
    """Describe the task the user typed or has open, read from the database."""
    language = language_of(message)
    words = TEXTS[language]
    try:
        task_id = target_task_id(runtime, ctx, slots, message)
    except UntypedId:
        return clarify(words["which"])
    if task_id is None:
        return clarify(words["which"])
    steps = runtime.context.tools
    try:
        wrong = wrong_typed_key(runtime, message, task_id)
        if wrong:
            return failed(words["no_such_task"].format(key=wrong), "not_found")
        steps.read("s1", "query_tasks", tools.query_tasks, scope=tools.rows_project_ids,
                   filters=TaskFilters(ids=(task_id,)))
        steps.read("facts", "task_facts", tools.task_facts, scope=lambda facts: [facts["project_id"]],
                   task_id=task_id)
    except ApplicationError as exc:
        return failed(words["unreadable"].format(why=exc.message), exc.code)
    rows = steps.shown["s1"]
    if not rows:
        return failed(words["gone"], "not_found")
    return done(brief_words(rows[0], steps.data("facts")["subtask_count"], language), count=1, items=rows,
                task=rows[0])
