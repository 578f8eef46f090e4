"""Plan-Execute: every request goes to a planner, then an executor call per step, then a replanner check.

Each of the three roles gets the whole page context as JSON. The executor is the small model with
every tool bound; the planner and replanner answer with structured output. A small LangGraph graph:
plan → execute (per step) → replan → execute … → end.
"""
from __future__ import annotations

import json
from typing import Any, Literal, TypedDict

from django.contrib.auth.models import User
from django.utils import timezone
from langgraph.graph import START, StateGraph

from agent.llm.base import LLMError
from agent.llm.client import LLMClient
from agent.prompting.messages import AssembledPrompt

from .common import APPROVE, REJECT, Turn, baseline_client, page_json, request_text
from .suite import Scenario
from .tools import TOOL_SCHEMAS, TOOLS, tool_call

MAX_REPLANS = 3
_STEP = {"type": "object", "additionalProperties": False, "required": ["id", "tool", "args"],
         "properties": {"id": {"type": "string"}, "tool": {"type": "string", "enum": sorted(TOOLS)},
                        "args": {"type": "string", "description": "The tool's arguments as a JSON object."}}}
PLAN_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["steps"],
               "properties": {"steps": {"type": "array", "items": _STEP}}}
REPLAN_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["done", "answer", "steps"],
                 "properties": {"done": {"type": "boolean"}, "answer": {"type": "string"},
                                "steps": {"type": "array", "items": _STEP}}}
PLANNER = """\
You plan how to serve a request in a project-management app: a list of tool steps (tools: {tools}).
Ask the user before you delete a task or change more than 5 tasks at once: then plan no step.
Today is {today}. The page the user is on, as the page sent it (JSON):
{context}"""
EXECUTOR = """\
You execute one step of a plan with one tool call. Today is {today}. The page (JSON):
{context}"""
REPLANNER = """\
You check a plan's results. If the request is served (or you must ask the user), set done and write the
answer to the user; otherwise list the next steps. Today is {today}. The page (JSON):
{context}"""


class PlanState(TypedDict):
    conversation: str
    pending: list[dict[str, Any]]
    results: list[dict[str, Any]]
    replans: int
    answer: str


def _steps(raw: Any) -> list[dict[str, Any]]:
    steps = raw.get("steps") if isinstance(raw, dict) else None
    return [s for s in steps or [] if isinstance(s, dict) and "tool" in s]


def plan_execute_graph(llm: LLMClient, user: User) -> Any:
    def system(template: str) -> dict[str, str]:
        return {"role": "system", "content": template.format(tools=", ".join(TOOLS), today=timezone.localdate(),
                                                             context=page_json())}

    def done_so_far(state: PlanState) -> str:
        return json.dumps(state["results"], ensure_ascii=False)

    def plan(state: PlanState) -> dict[str, Any]:
        prompt = AssembledPrompt(messages=[system(PLANNER), {"role": "user", "content": state["conversation"]}])
        return {"pending": _steps(llm.complete_json(purpose="pe_plan", role="generation", prompt=prompt,
                                                    json_schema=PLAN_SCHEMA))}

    def execute(state: PlanState) -> dict[str, Any]:
        step, *rest = state["pending"]
        args = step["args"] if isinstance(step["args"], str) else json.dumps(step["args"])
        shown = json.dumps({"tool": step["tool"], "args": json.loads(args or "{}")}, ensure_ascii=False)
        user_text = f"{state['conversation']}\n\nResults so far: {done_so_far(state)}\n\nCurrent step: {shown}"
        messages = [system(EXECUTOR), {"role": "user", "content": user_text}]
        reply = llm.complete(purpose="pe_execute", role="router", tools=TOOL_SCHEMAS,
                             prompt=AssembledPrompt(messages=messages))
        results = [{"step": step.get("id"), "tool": c.name, "result": json.loads(tool_call(user, c.name, c.arguments))}
                   for c in reply.tool_calls]
        return {"pending": rest, "results": state["results"] + results}

    def replan(state: PlanState) -> dict[str, Any]:
        user_text = f"{state['conversation']}\n\nResults: {done_so_far(state)}"
        prompt = AssembledPrompt(messages=[system(REPLANNER), {"role": "user", "content": user_text}])
        raw = llm.complete_json(purpose="pe_replan", role="generation", prompt=prompt, json_schema=REPLAN_SCHEMA)
        if not isinstance(raw, dict) or raw.get("done") or state["replans"] >= MAX_REPLANS:
            return {"answer": str(raw.get("answer", "")) if isinstance(raw, dict) else "", "pending": []}
        return {"pending": _steps(raw), "replans": state["replans"] + 1}

    def next_step(state: PlanState) -> Literal["execute", "replan"]:
        return "execute" if state["pending"] else "replan"

    def after_replan(state: PlanState) -> Literal["execute", "__end__"]:
        return "execute" if state["pending"] else "__end__"

    graph = StateGraph(PlanState)
    graph.add_node("plan", plan)
    graph.add_node("execute", execute)
    graph.add_node("replan", replan)
    graph.add_edge(START, "plan")
    graph.add_conditional_edges("plan", next_step)
    graph.add_conditional_edges("execute", next_step)
    graph.add_conditional_edges("replan", after_replan)
    return graph.compile()


class PlanExecute:
    name = "Plan-Execute"

    def start(self, scenario: Scenario, user: User) -> Turn:
        message = request_text(scenario)
        self.graph = plan_execute_graph(baseline_client(user, message=message, page=scenario.page), user)
        self.conversation = f"User: {message}"
        return self._run()

    def answer(self, approve: bool) -> Turn:
        self.conversation += f"\nUser: {APPROVE if approve else REJECT}"
        return self._run()

    def _run(self) -> Turn:
        try:
            result = self.graph.invoke({"conversation": self.conversation, "pending": [], "results": [],
                                        "replans": 0, "answer": ""})
            reply = result["answer"]
        except LLMError as exc:
            reply = f"Error: {exc}"
        self.conversation += f"\nAssistant: {reply}"
        return Turn(reply=reply, asking=reply.rstrip().endswith("?"))
