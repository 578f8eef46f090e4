"""Regenerate the generated parts of docs/ARCHITECTURE.md, USAGE.md and DESIGN.md from the code; --check compares."""
from __future__ import annotations

import ast
import configparser
import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from pydantic import BaseModel

from agent.context.three_views import ALLOCATION
from agent.graph.graph import build_graph, input_schema
from agent.management.design_tables import render_page_context, render_views
from agent.page_context.schema import PageContext
from agent.registry import CAPABILITIES, PHRASES
from agent.routing.quick_actions import QUICK_ACTIONS
from archcheck.rules import ROUTER_FORBIDDEN, RULES, TOOLS_FORBIDDEN

COMMAND = ".venv/bin/python manage.py architecture_doc"
VIEW_KEYS = ("router_ctx", "exec_ctx", "model_summary")
_BLOCK = re.compile(r"(<!-- generated:(?P<name>[a-z]+) -->\n)(?P<body>.*?)(<!-- /generated:(?P=name) -->)", re.S)


def document_path() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "ARCHITECTURE.md"


def usage_path() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "USAGE.md"


def design_path() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "DESIGN.md"


def _type_name(annotation: Any) -> str:
    text = annotation.__name__ if isinstance(annotation, type) else str(annotation)
    return re.sub(r"\b(?:[a-z_]\w*\.)+(?=[A-Za-z_])", "", text).replace("|", "\\|")  # a bare | splits a cell


def _view_access(fn: Callable[..., Any]) -> tuple[list[str], list[str]]:
    """Return the views a node receives (its input schema) and writes to the state (following its calls)."""
    tree = ast.parse(inspect.getsource(sys.modules[fn.__module__]))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    seen: set[str] = set()
    reads: set[str] = set()
    writes: set[str] = set()
    todo = [fn.__name__]
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                reads.add(str(node.slice.value))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                reads.add(str(node.args[0].value))
            elif isinstance(node, ast.Dict):
                writes.update(str(k.value) for k in node.keys if isinstance(k, ast.Constant))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                todo.append(node.func.id)
    received = set(input_schema(fn).__annotations__)
    return [k for k in VIEW_KEYS if k in received], [k for k in VIEW_KEYS if k in writes]


def render_graph() -> str:
    graph = build_graph()
    lines = ["```mermaid", graph.get_graph().draw_mermaid().rstrip(), "```", "",
             "| node | function | receives views | writes views |", "|---|---|---|---|"]
    for name, spec in graph.builder.nodes.items():
        fn = inspect.unwrap(spec.runnable.func)  # type: ignore[union-attr]  # past the tracing wrapper
        reads, writes = (", ".join(f"`{k}`" for k in keys) or "—" for keys in _view_access(fn))
        lines.append(f"| `{name}` | `{fn.__module__}.{fn.__qualname__}` | {reads} | {writes} |")
    return "\n".join(lines)


def _guard(view: type[BaseModel], field: str) -> str:
    if view.__name__ == "RouterCtx" and field in ROUTER_FORBIDDEN:
        return "never (ARCH002)"
    if view.__name__ == "ExecCtx" and field in TOOLS_FORBIDDEN:
        return "never (ARCH003)"
    return "—"


def render_allocation() -> str:
    views = list(ALLOCATION)
    lines = ["| PageContext field | " + " | ".join(v.__name__ for v in views) + " |",
             "|---|" + "---|" * len(views)]
    for name, info in PageContext.model_fields.items():
        cells = []
        for view in views:
            carried = [(f, how) for f, (sources, how) in ALLOCATION[view].items() if name in sources]
            cells.append("; ".join(f"`{f}` ({how.split(':')[0]})" for f, how in carried) if carried
                         else _guard(view, name))
        lines.append(f"| `{info.alias or name}` | " + " | ".join(cells) + " |")
    lines += ["", "| view | field | type | made from | how |", "|---|---|---|---|---|"]
    for view in views:
        for field, info in view.model_fields.items():
            sources, how = ALLOCATION[view][field]
            made_from = ", ".join(f"`{PageContext.model_fields[s].alias or s}`" for s in sources) or "—"
            lines.append(f"| {view.__name__} | `{field}` | `{_type_name(info.annotation)}` | {made_from} | {how} |")
    return "\n".join(lines)


def render_capabilities() -> str:
    lines = ["| capability | node | writes | router line (the router prompt lists these) | phrases (word classes) |",
             "|---|---|---|---|---|"]
    for spec in CAPABILITIES:
        node = f"`{spec.node_path}`" if spec.node_path else "not built yet (`agent.capabilities.common.not_built`)"
        phrases = PHRASES.get(spec.name)
        words = ", ".join(f"`{word_class}`" for word_class in {**phrases.en, **phrases.zh}) if phrases else "none"
        lines.append(f"| `{spec.name}` | {node} | {'yes' if spec.writes else 'no'} | {spec.description} | {words} |")
    return "\n".join(lines)


def render_quick_actions() -> str:
    lines = ["| page | button | sent as (origin · action) | capability | model calls |", "|---|---|---|---|---|"]
    for page, entries in QUICK_ACTIONS.items():
        for entry in entries:
            where = "each task row" if entry.on_rows else "sidebar"
            lines.append(f"| {page} | **{entry.label}** ({where}) | `{entry.origin}` · `{entry.action}` | "
                         f"`{entry.capability}` | 0 |")
    return "\n".join(lines)


def render_rules() -> str:
    lines = ["| rule | what it forbids | seed 003 pattern it stops | where | waivable |", "|---|---|---|---|---|"]
    for rule in RULES:
        where = ", ".join(f"`{s}`" for s in rule.scope)
        lines.append(f"| {rule.id} | {rule.title} | {rule.pattern} | {where} | {'yes' if rule.waivable else 'no'} |")
    return "\n".join(lines)


def render_contracts() -> str:
    config = configparser.ConfigParser()
    config.read(Path(settings.BASE_DIR) / ".importlinter", encoding="utf-8")
    lines = ["| contract | type | modules |", "|---|---|---|"]
    for section in config.sections():
        if not section.startswith("importlinter:contract:"):
            continue
        contract = config[section]
        listed = {key: ", ".join(f"`{m}`" for m in contract.get(key, "").split()) for key in
                  ("source_modules", "forbidden_modules", "protected_modules", "allowed_importers")}
        if contract["type"] == "layers":
            modules = " > ".join(" ".join(f"`{m}`" if m != "|" else "\\|" for m in layer.split())
                                 for layer in contract["layers"].strip().splitlines())
        elif contract["type"] == "forbidden":
            modules = f"{listed['source_modules']} must not import {listed['forbidden_modules']}"
        else:
            modules = f"{listed['protected_modules']} imported only by {listed['allowed_importers']}"
        lines.append(f"| {contract['name']} | {contract['type']} | {modules} |")
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[], str]] = {
    "graph": render_graph, "allocation": render_allocation, "rules": render_rules, "contracts": render_contracts,
    "capabilities": render_capabilities, "quickactions": render_quick_actions,
    "pagecontext": render_page_context, "views": render_views,
}
# Which generated blocks each document must carry.
REQUIRED: dict[str, frozenset[str]] = {
    "ARCHITECTURE.md": frozenset({"graph", "allocation", "rules", "contracts", "capabilities", "quickactions"}),
    "USAGE.md": frozenset({"quickactions"}),
    "DESIGN.md": frozenset({"pagecontext", "views"}),
}


def document_render(text: str, *, name: str = "ARCHITECTURE.md") -> str:
    """Return text with every generated block replaced by what the code says now."""
    missing = REQUIRED[name] - {m.group("name") for m in _BLOCK.finditer(text)}
    if missing:
        raise CommandError(f"{name} lacks the markers <!-- generated:{sorted(missing)[0]} -->.")

    def replace(match: re.Match[str]) -> str:
        render = RENDERERS.get(match.group("name"))
        body = render() + "\n" if render else match.group("body")
        return match.group(1) + body + match.group(4)

    return _BLOCK.sub(replace, text)


class Command(BaseCommand):
    help = "Regenerate the generated sections of docs/ARCHITECTURE.md, USAGE.md and DESIGN.md (graph, tables, rules)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Fail if the document differs from the code.")

    def handle(self, *args: Any, **options: Any) -> None:
        for path in (document_path(), usage_path(), design_path()):
            current = path.read_text(encoding="utf-8")
            fresh = document_render(current, name=path.name)
            if options["check"]:
                if fresh != current:
                    raise CommandError(f"{path.name} disagrees with the code; run `{COMMAND}` and commit the result.")
                self.stdout.write(f"{path.name} matches the code.")
            elif fresh != current:
                path.write_text(fresh, encoding="utf-8")
                self.stdout.write(f"Regenerated {path.name}.")
            else:
                self.stdout.write(f"{path.name} was up to date.")
