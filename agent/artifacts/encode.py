"""Turn a tool result into the text an artifact stores, with its schema and counts.

Lists (a bare list, or a dict whose "items" is a list) are stored as NDJSON: one canonical JSON
value per line, so every inspection tool can stream the file line by line. The dict's other keys
(count, truncated...) go to the artifact's meta. A string is stored as it is (text/plain); any
other JSON value as an indented document (application/json), so its lines stay short too.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .refs import canonical_json

NDJSON = "application/x-ndjson"
JSON = "application/json"
TEXT = "text/plain"
# The keys besides "items" must stay small enough for a database row; else the whole result is one document.
META_MAX_CHARS = 4000
SCHEMA_MAX_FIELDS = 200


@dataclass(frozen=True)
class Encoded:
    text: str
    content_type: str
    schema: dict[str, Any]
    meta: dict[str, Any]
    items: list[Any] | None
    item_count: int
    line_count: int


def items_of(result: Any) -> list[Any] | None:
    """Return the result's item list (a bare list, or the list under "items"), or None."""
    if isinstance(result, list):
        return result
    if isinstance(result, dict) and isinstance(result.get("items"), list):
        items: list[Any] = result["items"]
        return items
    return None


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    return "object"


def fields_of(rows: Iterable[Any]) -> tuple[dict[str, str], bool]:
    """Return every key of the dict rows with the union of its value types, and whether keys were capped."""
    types: dict[str, set[str]] = {}
    capped = False
    for row in rows:
        if not isinstance(row, dict):
            continue
        for key, value in row.items():
            if key not in types and len(types) >= SCHEMA_MAX_FIELDS:
                capped = True
                continue
            types.setdefault(str(key), set()).add(type_name(value))
    return {k: "|".join(sorted(v)) for k, v in types.items()}, capped


def _line_count(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def result_encode(result: Any) -> Encoded:
    """Encode a JSON-able tool result for storage (see the module docstring for the three forms)."""
    items = items_of(result)
    meta: dict[str, Any] = {}
    if isinstance(result, dict) and items is not None:
        meta = {k: v for k, v in result.items() if k != "items"}
        if len(canonical_json(meta)) > META_MAX_CHARS:
            items, meta = None, {}
    if items is not None:
        text = "".join(canonical_json(item) + "\n" for item in items)
        fields, capped = fields_of(items)
        kinds = sorted({type_name(item) for item in items})
        schema = {"kind": "items", "item_types": kinds, "fields": fields, "fields_capped": capped}
        return Encoded(text, NDJSON, schema, meta, items, len(items), len(items))
    if isinstance(result, str):
        return Encoded(result, TEXT, {"kind": "text"}, {}, None, 0, _line_count(result))
    text = json.dumps(result, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    fields, capped = fields_of([result])
    schema = {"kind": type_name(result), "fields": fields, "fields_capped": capped}
    return Encoded(text, JSON, schema, {}, None, 0, _line_count(text))
