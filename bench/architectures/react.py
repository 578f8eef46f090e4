"""ReAct: one agent loop with every tool bound and the whole page context as JSON in the system prompt.

The only guard on deletes is the prompt's request to ask first. A small LangGraph graph:
agent ⇄ tools, until the model answers without a tool call (or MAX_STEPS).
"""
from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, TypedDict

from django.contrib.auth.models import User
from django.utils import timezone
from langgraph.graph import START, StateGraph

from agent.llm.client import LLMClient
from agent.prompting.messages import AssembledPrompt

from .common import APPROVE, REJECT, Turn, baseline_client, page_json, request_text
from .suite import Scenario
from .tools import TOOL_SCHEMAS, tool_call

MAX_STEPS = 8
SYSTEM = """\
You are the assistant of a project-management app. Use the tools to read and change tasks, then answer briefly.
Ask the user before you delete a task or change more than 5 tasks at once.
Today is {today}. The page the user is on, as the page sent it (JSON):
{context}"""


class ReactState(TypedDict):
    messages: Annotated[list[dict[str, Any]], operator.add]
    steps: int


def react_graph(llm: LLMClient, user: User) -> Any:
    """agent → tools → agent … → end."""

    def agent(state: ReactState) -> dict[str, Any]:
        reply = llm.complete(purpose="react", role="generation", tools=TOOL_SCHEMAS,
                             prompt=AssembledPrompt(messages=state["messages"]))
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if reply.tool_calls:
            base = len(state["messages"])
            message["tool_calls"] = [{"id": f"call_{base}_{n}", "type": "function",
                                      "function": {"name": c.name, "arguments": c.arguments}}
                                     for n, c in enumerate(reply.tool_calls)]
        return {"messages": [message], "steps": state["steps"] + 1}

    def tools(state: ReactState) -> dict[str, Any]:
        calls = state["messages"][-1]["tool_calls"]
        return {"messages": [{"role": "tool", "tool_call_id": c["id"],
                              "content": tool_call(user, c["function"]["name"], c["function"]["arguments"])}
                             for c in calls]}

    def after_agent(state: ReactState) -> Literal["tools", "__end__"]:
        return "tools" if state["messages"][-1].get("tool_calls") and state["steps"] < MAX_STEPS else "__end__"

    graph = StateGraph(ReactState)
    graph.add_node("agent", agent)
    graph.add_node("tools", tools)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", after_agent)
    graph.add_edge("tools", "agent")
    return graph.compile()


class ReAct:
    name = "ReAct"

    def start(self, scenario: Scenario, user: User) -> Turn:
        message = request_text(scenario)
        self.graph = react_graph(baseline_client(user, message=message, page=scenario.page), user)
        system = SYSTEM.format(today=timezone.localdate().isoformat(), context=page_json())
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system},
                                               {"role": "user", "content": message}]
        return self._run()

    def answer(self, approve: bool) -> Turn:
        self.messages.append({"role": "user", "content": APPROVE if approve else REJECT})
        return self._run()

    def _run(self) -> Turn:
        self.messages = self.graph.invoke({"messages": self.messages, "steps": 0})["messages"]
        reply = self.messages[-1].get("content") or ""
        return Turn(reply=reply, asking=reply.rstrip().endswith("?"))


class ReActWithButtons:
    """ReAct for typed requests; a quick button served as the app serves it (agent.run.service's fast path).

    ReAct alone gets a button as its words; this baseline gives it the same zero-LLM buttons the
    Router has, so a comparison credits the buttons apart from routing and trimming typed text.
    """

    name = "ReAct + buttons"

    def start(self, scenario: Scenario, user: User) -> Turn:
        from .router import router_trimmed

        self.inner: ReAct | Any = router_trimmed() if scenario.via == "button" else ReAct()
        return self.inner.start(scenario, user)

    def answer(self, approve: bool) -> Turn:
        return self.inner.answer(approve)
