"""The checkpointer restores exactly the types that enter the graph state, so none comes back as a dict."""
from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints

from pydantic import BaseModel

from agent.capabilities.decompose.flow import DecomposeState
from agent.graph.checkpointer import ALLOWED_TYPES
from agent.state import AgentState


def _models(hint: Any, found: set[type[Any]]) -> None:
    """Collect every pydantic model and dataclass a type hint can hold, through unions, containers and fields."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hint not in found:
            found.add(hint)
            for field in dataclasses.fields(hint):
                _models(field.type, found)
        return
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        if hint in found:
            return
        found.add(hint)
        for field in hint.model_fields.values():
            _models(field.annotation, found)
        return
    if get_origin(hint) is typing.Annotated:
        _models(get_args(hint)[0], found)
        return
    if get_origin(hint) in (typing.Union, types.UnionType) or get_args(hint):
        for arg in get_args(hint):
            _models(arg, found)


def test_allowed_types_are_the_types_that_enter_the_state() -> None:
    found: set[type[Any]] = set()
    for state in (AgentState, DecomposeState):
        for hint in get_type_hints(state, include_extras=True).values():
            _models(hint, found)
    entering = {(model.__module__, model.__name__) for model in found}
    assert entering == set(ALLOWED_TYPES), (
        "agent/graph/checkpointer.py ALLOWED_TYPES must list every model in the graph state: "
        f"missing {sorted(entering - set(ALLOWED_TYPES))}, extra {sorted(set(ALLOWED_TYPES) - entering)}")
