"""The task a request names: only a number or key the user typed, and a typed key must be the task's own."""
from __future__ import annotations

import re

from langgraph.runtime import Runtime

from agent.context.three_views import ExecCtx
from agent.models import Alert
from agent.reading.tokens import tokenize
from agent.routing.decision import Slots
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

_TYPED_NUMBER = re.compile(r"(?:(?<![\w-])#?|(?<=[A-Za-z]-)|(?<=任务)|(?<=任务#))(\d{1,12})(?![A-Za-z0-9_-])")


def typed_numbers(message: str) -> set[int]:
    """The task numbers the user typed: "5", "#5", "WEB-5", "任务5", and every reference the reader reads
    ("把5号任务删了"); not "5号" alone, which may be a day."""
    return {int(n) for n in _TYPED_NUMBER.findall(message)} | {
        int(t.value) for t in tokenize(message) if t.kind == "ref"}


class UntypedId(Exception):
    """The model named a task the user did not name."""


def target_task_id(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots, message: str) -> int | None:
    """The task the request is about: a number the user typed, else the one selected on the page.

    A number the model put in the slots counts only if it is in the user's own message: the
    model may point at what the user said, never supply an id of its own.
    """
    if slots.task_id is not None:
        if slots.task_id in typed_numbers(message):
            return slots.task_id
        runtime.context.recorder.alert(
            Alert.Kind.MODEL_ID, "The router named a task the user did not name; it was not used.",
            key=f"task_id:{slots.task_id}", argument="task_id", value=slots.task_id)
        raise UntypedId
    if ctx.selected_entity and ctx.selected_entity.type == "task":
        return ctx.selected_entity.id
    return ctx.route_params.task_id
