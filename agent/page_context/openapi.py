"""The PageContext's JSON schema as OpenAPI 3.0 describes a field: one source for the API's schema.

pydantic writes JSON Schema 2020-12 (``$defs`` references, ``anyOf`` with ``null``, ``const``);
OpenAPI 3.0 has none of those, so the schema is inlined and rewritten (``nullable``, ``enum``).
"""
from __future__ import annotations

from functools import cache
from typing import Any

from .schema import PageContext

_NULL = {"type": "null"}


def _rewrite(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_rewrite(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _rewrite(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    out: dict[str, Any] = {}
    if _NULL in node.get("anyOf", []):
        rest = [option for option in node["anyOf"] if option != _NULL]
        if len(rest) == 1:
            out.update(_nullable(_rewrite(rest[0], defs)))
        else:
            # OpenAPI 3.0 reads nullable only beside a type: each option says it (an enum lists null).
            out["anyOf"] = [_nullable(_rewrite(option, defs)) for option in rest]
    for key, value in node.items():
        if key in ("$defs", "title") or (key == "anyOf" and _NULL in value):
            continue
        if key == "const":
            out["enum"] = [value]
        elif key == "properties":
            out[key] = {name: _rewrite(schema, defs) for name, schema in value.items()}
        else:
            out[key] = _rewrite(value, defs)
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True, **({"enum": [*schema["enum"], None]} if "enum" in schema else {})}


@cache
def page_context_openapi_schema() -> dict[str, Any]:
    """The PageContext as the request bodies' schema names it (camelCase keys, limits, enums)."""
    schema = PageContext.model_json_schema(by_alias=True)
    rewritten: dict[str, Any] = _rewrite(schema, schema.get("$defs", {}))
    return {**rewritten, "description": "What the page shows (docs/DESIGN.md#page-context): camelCase keys, no others."}
