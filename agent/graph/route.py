"""The route node: a quick action is routed by the fast-path table, free text by the router model.

Routing happens here, once. The service has only checked, before anything was written, that the
action exists for the page's origin (an unknown one is a 400) and whether its run may pause.
"""
from __future__ import annotations

import re
from typing import Any, NotRequired, TypedDict

from langgraph.runtime import Runtime

from agent.context.three_views import RouterCtx
from agent.context.words import quote_user_text
from agent.llm.base import LLMUnavailable
from agent.reading.reader import read
from agent.routing.decision import Route
from agent.routing.intent_check import checked_route, rules_write_kind
from agent.routing.llm_router import llm_route
from agent.runtime import RunContext
from agent.tools import task_tools
from agent.words.language import in_each_language, language_of
from pm_assistant.errors import ApplicationError

# When the router model cannot be reached: said in the language of the message, the provider's reason kept.
TEXTS = in_each_language(
    en={"unavailable": "{why} Nothing was changed. Try again, or use a quick action."},
    zh={"unavailable": "模型暂时不可用，什么都没有改。请重试，或使用快捷按钮。（{why}）"},
)


_TYPED_KEY = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]{0,9}-(\d{1,12})(?![A-Za-z0-9_-])")


def _target_task_id(ctx: RouterCtx, message: str) -> int | None:
    """The task the request is about, when it is plain: one key the user typed, else the page's task."""
    typed = set(_TYPED_KEY.findall(message))
    if len(typed) == 1:
        return int(typed.pop())
    if typed:
        return None
    if ctx.selected_entity and ctx.selected_entity.type == "task":
        return ctx.selected_entity.id
    return ctx.route_params.task_id


def target_facts_words(runtime: Runtime[RunContext], ctx: RouterCtx, message: str) -> str:
    """Facts first: the server's title, status, assignee and due date of the task a write is about, as words.

    Read through the run's tools (on the trace, and reused by a later update of the same task); a task
    the user cannot see gives no facts.
    """
    # Only for a message that may ask for a write: one the reader read as a write, or could not read at all
    # ("mark the signup page task done" names its task by words). A question the reader read as one (a
    # query, the risk, a report) never puts the task's title, text a stranger may have written, in the prompt.
    reading = read(message)
    maybe_write = rules_write_kind(reading) is not None or reading.capability == "clarify"
    task_id = _target_task_id(ctx, message) if maybe_write else None
    if task_id is None:
        return ""
    steps = runtime.context.tools
    try:
        steps.read("facts", "task_facts", task_tools.task_facts, scope=lambda facts: [facts["project_id"]],
                   task_id=task_id, subtasks=False)
    except ApplicationError:
        return ""
    facts = steps.data("facts")
    who = f"assigned to {facts['assignee']}" if facts["assignee"] else "unassigned"
    due = f"due {facts['due_date']}" if facts["due_date"] else "no due date"
    # No key and no id: the model names the task by what the user said, the server knows which it is.
    return (f"The task is titled {quote_user_text(facts['title'], 120)}; its status is "
            f"{str(facts['status']).replace('_', ' ')}, {who}, {due}.")


class RouteInput(TypedDict):
    message: str
    action: str
    router_ctx: RouterCtx
    # A quick action's route (the service found it in the table), or a write the server proposed and
    # checked before the run (an answer's move, Route.proposed); None for a typed message.
    route: Route | None


def route(state: RouteInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Take a quick action's route (the service found it in the table, no model) or a route the server
    proposed (Route.proposed, an answer's move), or ask the router model to classify the message."""
    ctx = state["router_ctx"]
    given = state["route"]
    if state["action"] and given is None:
        raise ValueError("a quick action reaches the graph with its route (agent.run.service.run_request)")
    if given is not None:
        decision = given
    else:
        try:
            decision = llm_route(ctx=ctx, message=state["message"], llm=runtime.context.llm,
                                 task_facts=target_facts_words(runtime, ctx, state["message"]))
        except LLMUnavailable as exc:
            runtime.context.recorder.node("route", error=str(exc))
            return {"route": None, "outcome": {
                "status": "error", "error_code": exc.code, "data": {},
                "reply": TEXTS[language_of(state["message"])]["unavailable"].format(why=exc),
            }}
        # The model's choice of a write is checked against the user's own words, read by the rules:
        # "don't …" and "should I …?" read whole go to clarify, which says nothing changed; a write on
        # the task a correction took back is moved to the task meant, and waits on its card.
        decision = checked_route(message=state["message"], route=decision)
    runtime.context.recorder.node("route", capability=decision.capability, via=decision.via,
                                  confidence=decision.confidence, slots=decision.slots,
                                  intent=decision.intent)
    return {"route": decision}


class Routed(TypedDict):
    route: NotRequired[Route | None]


def to_capability(state: Routed) -> str:
    """Send the run to the routed capability, or straight to respond when routing failed."""
    decision = state.get("route")
    return "respond" if decision is None else decision.capability
