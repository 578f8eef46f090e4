"""docs/DESIGN.md's two tables, rendered from the code: the PageContext's keys and which view gets each one.

The PageContext table reads the schema the API publishes (agent.page_context.openapi), so the type, the
limits and the notes are the ones a request is checked against; the view table reads `ALLOCATION`
(agent/context/three_views.py) and the fields archcheck forbids, as ARCHITECTURE.md's detailed table does.
"""
from __future__ import annotations

from typing import Any

from agent.context.three_views import ALLOCATION
from agent.page_context.openapi import page_context_openapi_schema
from agent.page_context.schema import PageContext
from archcheck.rules import ROUTER_FORBIDDEN, TOOLS_FORBIDDEN
from pm_assistant.vocabulary import ID_MAX


def _type(node: dict[str, Any]) -> str:
    """A JSON schema node in a few words: `a` | `b`, int, string, date, list of …, {"key"?: …}."""
    if "anyOf" in node:
        options = [{k: v for k, v in option.items() if k != "nullable"} for option in node["anyOf"]]
        text = " \\| ".join(_type(option) for option in options)
        node = {"nullable": any(option.get("nullable") for option in node["anyOf"])}
    elif "enum" in node:
        text = " \\| ".join(f"`{value}`" for value in node["enum"] if value is not None)
    elif node.get("type") == "array":
        text = f"list of {_type(node['items'])}"
    elif node.get("type") == "object":
        required = set(node.get("required", ()))
        keys = ", ".join(f'"{key}"{"" if key in required else "?"}: {_type(value)}'
                         for key, value in node["properties"].items())
        text = "{" + keys + "}"
    elif node.get("format") == "date":
        text = "date (YYYY-MM-DD)"
    elif node.get("type") == "integer" and node.get("maximum", ID_MAX) < ID_MAX:
        text = f"int {node.get('minimum', 0)}..{node['maximum']}"
    else:
        text = {"integer": "int", "string": "string", "boolean": "bool"}.get(node.get("type", ""), "any")
    return text + (" or null" if node.get("nullable") else "")


def _limits(node: dict[str, Any]) -> list[str]:
    """What the schema bounds: list lengths and string lengths."""
    if "anyOf" in node:
        return [limit for option in node["anyOf"] for limit in _limits(option)]
    limits = []
    if "maxItems" in node:
        limits.append(f"at most {node['maxItems']} items")
    if "maxLength" in node:
        limits.append(f"at most {node['maxLength']} characters")
    return limits


def render_page_context() -> str:
    """The PageContext's keys: type, whether required, limits and what each says."""
    schema = page_context_openapi_schema()
    required = set(schema.get("required", ()))
    lines = ["| key | type | notes |", "|---|---|---|"]
    for key, node in schema["properties"].items():
        notes = (["required"] if key in required else []) + _limits(node)
        if node.get("description"):
            notes.append(node["description"])
        lines.append(f"| `{key}` | {_type(node)} | {'; '.join(notes)} |")
    return "\n".join(lines)


def allocation_cell(view: type, field: str) -> str:
    """What a view gets of a PageContext field: yes, how, no, or **never** where archcheck forbids it."""
    carried = [how.split(":")[0] for sources, how in ALLOCATION[view].values() if field in sources]
    if carried:
        return "; ".join("yes" if how in ("as is", "full") else how for how in carried)
    forbidden = (view.__name__ == "RouterCtx" and field in ROUTER_FORBIDDEN) or (
        view.__name__ == "ExecCtx" and field in TOOLS_FORBIDDEN)
    return "**never**" if forbidden else "no"


def render_views() -> str:
    """Which view gets each PageContext field, from ALLOCATION; **never** where archcheck forbids it."""
    views = list(ALLOCATION)
    lines = ["| field | " + " | ".join(view.__name__ for view in views) + " |", "|---|" + "---|" * len(views)]
    for name, info in PageContext.model_fields.items():
        lines.append(f"| {info.alias or name} | " + " | ".join(allocation_cell(view, name) for view in views) + " |")
    return "\n".join(lines)
