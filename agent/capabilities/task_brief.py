"""A question about one task ("what is this task about?"): that task's facts, never a list of others."""
from __future__ import annotations

from typing import Any

from django.utils import timezone
from langgraph.runtime import Runtime

from agent.assembler.views import ExecCtx
from agent.routing.decision import Slots
from agent.runtime import RunContext
from agent.tools import task_tools as tools
from pm_assistant.errors import ApplicationError
from pm_assistant.markdown import literal, quoted
from pm_assistant.vocabulary import STATUS_LABELS
from tasks.filters import TaskFilters

from .outcome import clarify, done, failed
from .task_keys import UntypedId, target_task_id, wrong_typed_key


def brief_words(row: dict[str, Any], subtasks: int) -> str:
    """One task in a sentence: key, title, status, priority, due date (overdue or not), owner, project."""
    parts = [STATUS_LABELS[row["status"]].lower(), row["priority"]]
    if row["due_date"]:
        late = row["status"] != "done" and row["due_date"] < timezone.localdate().isoformat()
        parts.append(f"due {row['due_date']}" + (" (overdue)" if late else ""))
    parts.append(f"assigned to {literal(row['assignee'])}" if row["assignee"] else "unassigned")
    below = f" It has {subtasks} subtask{'s' if subtasks != 1 else ''}." if subtasks else ""
    return f"{row['key']} {quoted(row['title'])} in {row['project']}: {', '.join(parts)}.{below}"


def task_brief(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots, message: str) -> dict[str, Any]:
    """Describe the task the user typed or has open, read from the database."""
    try:
        task_id = target_task_id(runtime, ctx, slots, message)
    except UntypedId:
        return clarify("Which task do you mean? Open it, or type its key (for example WEB-25).")
    if task_id is None:
        return clarify("Which task do you mean? Open it, or type its key (for example WEB-25).")
    steps = runtime.context.tools
    try:
        wrong = wrong_typed_key(runtime, message, task_id)
        if wrong:
            return failed(f"There is no task {wrong} among your projects.", "not_found")
        steps.read("s1", "query_tasks", tools.query_tasks, scope=tools.rows_project_ids,
                   filters=TaskFilters(ids=(task_id,)))
        steps.read("facts", "task_facts", tools.task_facts, scope=lambda facts: [facts["project_id"]],
                   task_id=task_id)
    except ApplicationError as exc:
        return failed(f"That task could not be read: {exc.message}", exc.code)
    rows = steps.shown["s1"]
    if not rows:
        return failed("That task no longer exists, or you cannot see it.", "not_found")
    return done(brief_words(rows[0], steps.data("facts")["subtask_count"]), count=1, items=rows, task=rows[0])
