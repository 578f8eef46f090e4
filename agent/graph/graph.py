"""Wire the graph: assemble → route → capability → respond, its capability nodes from the registry.

Every node is entered through one step that reads the owner's stop (a stopped run ends there, before
the node can write) and tells the sidebar the run's stage: the words beside the graph's own nodes
below, or the capability's label from the registry.
"""
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

from agent.capabilities.common.not_built import not_built
from agent.registry import BY_NAME, CAPABILITIES
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
    {spec.name: _node(spec.node_path) for spec in CAPABILITIES})


def input_schema(node: CapabilityNode) -> type[Any]:
    """The TypedDict a node declares for its first parameter: the only state keys it receives."""
    hints = get_type_hints(node)
    first = next(iter(hints))
    return hints[first]


# What the working bubble says while each of the graph's own nodes runs (a capability says its label).
OWN_NODES: Mapping[str, str] = MappingProxyType({
    "assemble": "Reading the page",
    "route": "Understanding your request",
    "respond": "Finishing the answer",
})


def stage_label(node: str) -> str:
    """What the working bubble says while the node runs: its own words, or the capability's label."""
    if node in OWN_NODES:
        return OWN_NODES[node]
    return BY_NAME[node].label if node in BY_NAME else node


def _step(name: str, node: CapabilityNode, *, traced: bool) -> CapabilityNode:
    """Enter the node: stop here if the owner asked, say the stage, and trace a capability node each time
    it runs (again on resume after a confirmation)."""
    label = stage_label(name)

    # wraps keeps the node's own name and module and sets __wrapped__, so the generated
    # node table (manage.py architecture_doc) describes the node, not this wrapper.
    @functools.wraps(node)
    def run(state: Any, runtime: Runtime[RunContext]) -> dict[str, Any]:
        if runtime.context.live is not None:
            runtime.context.live.enter(label)
        if traced:
            runtime.context.recorder.node(name)
        return node(state, runtime)

    return run


def build_graph(checkpointer: BaseCheckpointSaver[Any] | None = None, *,
                nodes: Mapping[str, CapabilityNode] = CAPABILITY_NODES) -> Graph:
    """Build and compile the assistant's graph; `nodes` names the capability nodes (tests pass their own)."""
    builder = StateGraph(AgentState, context_schema=RunContext)

    def add(name: str, node: CapabilityNode, *, traced: bool = False) -> None:
        builder.add_node(name, _step(name, node, traced=traced), input_schema=input_schema(node))

    add("assemble", assemble)
    add("route", route)
    for name, node in nodes.items():
        add(name, node, traced=True)
        builder.add_edge(name, "respond")
    add("respond", respond)
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
