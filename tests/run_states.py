"""The graph state each run of a test ended with, as the graph returned it to the run's service.

A run that ends keeps no checkpoint (agent/graph/pause_saver.py), so a test reads the final state here.
"""
from __future__ import annotations

from typing import Any

import pytest

from agent.run import service


def final_states(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, Any]]:
    """From now on, record each run's final state by its run id (the graph's thread id)."""
    states: dict[str, dict[str, Any]] = {}
    graph_for = service.graph_for

    def recording(saver: Any, graph: Any = None) -> Any:
        compiled = graph_for(saver, graph)
        invoke = compiled.invoke

        def invoked(graph_input: Any, config: Any, **kwargs: Any) -> Any:
            result = invoke(graph_input, config=config, **kwargs)
            states[config["configurable"]["thread_id"]] = result
            return result

        compiled.invoke = invoked  # type: ignore[method-assign,assignment]
        return compiled

    monkeypatch.setattr(service, "graph_for", recording)
    return states
