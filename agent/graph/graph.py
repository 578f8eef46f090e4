"""Wire the graph: assemble → route → capability → respond."""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from agent.capabilities.clarify import clarify
from agent.capabilities.crud import crud
from agent.capabilities.decompose import decompose
from agent.capabilities.query import query
from agent.capabilities.upcoming import upcoming
from agent.runtime import RunContext
from agent.state import AgentState

from .nodes import assemble, respond, route, to_capability

CapabilityNode = Callable[..., dict[str, Any]]  # (state, runtime) -> state update
CAPABILITY_NODES: Mapping[str, CapabilityNode] = MappingProxyType({
    "crud": crud,
    "query": query,
    "clarify": clarify,
    "decompose": decompose,
    "weekly_report": upcoming,
    "risk": upcoming,
})


def _traced(name: str, node: CapabilityNode) -> CapabilityNode:
    """Put the capability node on the trace each time it runs (again on resume after a confirmation)."""

    # wraps keeps the capability's own name and module and sets __wrapped__, so the generated
    # node table (manage.py architecture_doc) describes the capability, not this wrapper.
    @functools.wraps(node)
    def run(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        runtime.context.recorder.node(name)
        return node(state, runtime)

    return run


def build_graph(checkpointer: BaseCheckpointSaver[Any] | None = None, *,
                nodes: Mapping[str, CapabilityNode] = CAPABILITY_NODES) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Build and compile the assistant's graph; `nodes` names the capability nodes (tests pass their own)."""
    builder = StateGraph(AgentState, context_schema=RunContext)
    builder.add_node("assemble", assemble)
    builder.add_node("route", route)
    for name, node in nodes.items():
        builder.add_node(name, _traced(name, node))
        builder.add_edge(name, "respond")
    builder.add_node("respond", respond)
    builder.add_edge(START, "assemble")
    builder.add_edge("assemble", "route")
    builder.add_conditional_edges("route", to_capability, [*nodes, "respond"])
    builder.add_edge("respond", END)
    return builder.compile(checkpointer=checkpointer)
