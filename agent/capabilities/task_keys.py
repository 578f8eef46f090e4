"""A task key the user typed ("OPS-4") must be the task's own key, not only its number."""
from __future__ import annotations

import re

from langgraph.runtime import Runtime

from agent.runtime import RunContext
from agent.tools import task_tools as tools


def typed_keys(message: str, task_id: int) -> set[str]:
    """The keys ending in this task's number that the user typed, upper-cased."""
    pattern = rf"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]{{0,9}}-{task_id}(?![A-Za-z0-9_-])"
    return {found.upper() for found in re.findall(pattern, message)}


def wrong_typed_key(runtime: Runtime[RunContext], message: str, task_id: int) -> str | None:
    """Return a typed key that names another project than the task's (then the task is not the one meant)."""
    typed = typed_keys(message, task_id)
    if not typed:
        return None
    # The same read as the capability's own facts step: the runner reuses it within the run.
    runner = runtime.context.tools
    runner.read("facts", "task_facts", tools.task_facts, scope=lambda facts: [facts["project_id"]], task_id=task_id)
    key = str(runner.data("facts")["key"]).upper()
    return next((k for k in sorted(typed) if k != key), None)
