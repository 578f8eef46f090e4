"""Parameter bindings: a step names where a value comes from; the runtime fetches it.

The model never re-types an id or an array. A binding points either at an earlier step's
result (``{"from_step": "s1", "path": "$.items[*].id"}``) or at an artifact
(``{"artifact": "art_…", "path": "$.items[*].id"}``). Paths use JSONPath as implemented by
jsonpath-ng. Over an artifact the logical document is ``{"items": [...], **meta}``; the paths
``$.items[*].<field>`` and ``$.<meta key>`` are read by streaming the stored lines, so binding
100 000 ids never loads the rows themselves.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jsonpath_ng import parse as jsonpath_parse
from jsonpath_ng.exceptions import JSONPathError
from pydantic import BaseModel, ConfigDict, model_validator

from pm_assistant.errors import ApplicationError

_ITEMS_FIELD = re.compile(r"^\$\.items\[\*\]\.([A-Za-z_][A-Za-z0-9_]*)$")
_META_KEY = re.compile(r"^\$\.([A-Za-z_][A-Za-z0-9_]*)$")


class BindingUnresolved(ApplicationError):
    code = "binding_unresolved"


class Binding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    from_step: str | None = None
    artifact: str | None = None
    path: str

    @model_validator(mode="after")
    def _one_source(self) -> Binding:
        if (self.from_step is None) == (self.artifact is None):
            raise ValueError("a binding names exactly one of from_step or artifact")
        return self

    def describe(self) -> str:
        source = f"step {self.from_step}" if self.from_step else f"artifact {self.artifact}"
        return f"{source} at {self.path}"


class StepResult(BaseModel):
    """What a step produced: inline data, or a reference to the artifact that holds it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: str
    data: Any = None
    artifact: str | None = None


ArtifactItems = Callable[[str], Iterable[dict[str, Any]]]
ArtifactMeta = Callable[[str], Mapping[str, Any]]


# A path is parsed once per process: the quick buttons bind the same few paths on every run.
_parsed = functools.lru_cache(maxsize=256)(jsonpath_parse)


def _from_document(document: Any, path: str, where: str) -> Any:
    try:
        expression = _parsed(path)
    except JSONPathError as exc:
        raise BindingUnresolved(f"binding: {path!r} is not a valid path ({exc}).", field="binding") from None
    matches = [m.value for m in expression.find(document)]
    if not matches:
        raise BindingUnresolved(f"binding: nothing at {path} in {where}.", field="binding")
    wildcard = "[*]" in path or ".." in path
    return matches if wildcard else matches[0]


def _from_artifact(ref: str, path: str, items: ArtifactItems, meta: ArtifactMeta) -> Any:
    field_match = _ITEMS_FIELD.match(path)
    if field_match:
        name = field_match.group(1)
        values = []
        for index, item in enumerate(items(ref)):
            if name not in item:
                raise BindingUnresolved(f"binding: item {index} of {ref} has no {name!r}.", field="binding")
            values.append(item[name])
        return values
    key_match = _META_KEY.match(path)
    if key_match:
        document = dict(meta(ref))
        if key_match.group(1) not in document:
            raise BindingUnresolved(f"binding: {ref} has no {key_match.group(1)!r}.", field="binding")
        return document[key_match.group(1)]
    return _from_document({"items": list(items(ref)), **meta(ref)}, path, ref)


def binding_resolve(binding: Binding, *, results: Mapping[str, StepResult], items: ArtifactItems,
                    meta: ArtifactMeta) -> Any:
    """Return the value a binding points at, or raise BindingUnresolved naming what is missing."""
    if binding.artifact is not None:
        return _from_artifact(binding.artifact, binding.path, items, meta)
    assert binding.from_step is not None
    result = results.get(binding.from_step)
    if result is None:
        raise BindingUnresolved(f"binding: step {binding.from_step!r} has no result (yet).", field="binding")
    if result.artifact is not None:
        return _from_artifact(result.artifact, binding.path, items, meta)
    return _from_document(result.data, binding.path, f"step {binding.from_step}")
