"""Wire the graph: assemble → route → capability → respond, its capability nodes from the registry."""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, get_type_hints

from django.utils.module_loading import import_string
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from agent.capabilities.not_built import not_built
from agent.registry import CAPABILITIES
from agent.runtime import RunContext
from agent.state import AgentState

from .nodes import assemble, respond
from .route import route, to_capability

CapabilityNode = Callable[..., dict[str, Any]]  # (state, runtime) -> state update
Graph = CompiledStateGraph[Any, Any, Any, Any]


def _node(path: str | None) -> CapabilityNode:
    """Import a capability's node; one that is routed but not built answers that it is not available."""
    return not_built if path is None else import_string(path.replace(":", "."))


CAPABILITY_NODES: Mapping[str, CapabilityNode] = MappingProxyType(
    {spec.name: _node(spec.node) for spec in CAPABILITIES})


def input_schema(node: CapabilityNode) -> type[Any]:
    """The TypedDict a node declares for its first parameter: the only state keys it receives."""
    hints = get_type_hints(node)
    first = next(iter(hints))
    return hints[first]


def _traced(name: str, node: CapabilityNode) -> CapabilityNode:
    """Put the capability node on the trace each time it runs (again on resume after a confirmation)."""

    # wraps keeps the capability's own name and module and sets __wrapped__, so the generated
    # node table (manage.py architecture_doc) describes the capability, not this wrapper.
    @functools.wraps(node)
    def run(state: Any, runtime: Runtime[RunContext]) -> dict[str, Any]:
        runtime.context.recorder.node(name)
        return node(state, runtime)

    return run


def build_graph(checkpointer: BaseCheckpointSaver[Any] | None = None, *,
                nodes: Mapping[str, CapabilityNode] = CAPABILITY_NODES) -> Graph:
    """Build and compile the assistant's graph; `nodes` names the capability nodes (tests pass their own)."""
    builder = StateGraph(AgentState, context_schema=RunContext)
    builder.add_node("assemble", assemble, input_schema=input_schema(assemble))
    builder.add_node("route", route, input_schema=input_schema(route))
    for name, node in nodes.items():
        builder.add_node(name, _traced(name, node), input_schema=input_schema(node))
        builder.add_edge(name, "respond")
    builder.add_node("respond", respond, input_schema=input_schema(respond))
    builder.add_edge(START, "assemble")
    builder.add_edge("assemble", "route")
    builder.add_conditional_edges("route", to_capability, [*nodes, "respond"])
    builder.add_edge("respond", END)
    return builder.compile(checkpointer=checkpointer)


@functools.cache
def compiled_graph() -> Graph:
    """The graph, compiled once per process; each run attaches its checkpointer (graph_for)."""
    return build_graph()


def graph_for(saver: BaseCheckpointSaver[Any] | None, graph: Graph | None = None) -> Graph:
    """Return the compiled graph with a run's checkpointer attached (a shallow copy, no recompile)."""
    return (graph or compiled_graph()).copy(update={"checkpointer": saver})
