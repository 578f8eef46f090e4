"""The four degradation patterns of seed 003 as AST rules over agent/, and ARCH005 (docs/ARCHITECTURE.md).

Each rule has a stable id, the folders it watches and a check that yields (node, message) pairs.
ARCH001, ARCH004 and ARCH005 may be waived on one line with `# archcheck: allow ARCH00x <reason>`;
ARCH002 and ARCH003 guard "never" cells of the allocation table and cannot be waived.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .respelled import check_respelled, check_template
from .source import ModuleInfo, parameters

Finding = tuple[ast.AST, str]

# ARCH001: names, attributes and state keys that hold a whole context view.
CONTEXT_ROOTS = frozenset({"ctx", "context", "exec_ctx", "router_ctx", "page_context", "state", "assembled",
                           "model_summary", "summary"})
CONTEXT_KEYS = frozenset({"exec_ctx", "router_ctx", "model_summary", "page_context", "assembled"})
CONTEXT_TYPES = frozenset({"ExecCtx", "RouterCtx", "ModelSummary", "PageContext", "AgentState",
                           "AssembledContext", "Filters", "KeyFilters"})
# Calls that paste their argument's structure into a string instead of rendering it as words.
STRINGIFIERS = frozenset({"str", "repr", "ascii", "format", "vars", "dict", "list", "tuple", "sorted", "dumps",
                          "pformat", "asdict"})
DUMP_METHODS = frozenset({"model_dump", "model_dump_json", "__repr__", "__str__"})
# ARCH002: what the router must never touch (list data, exec-only fields, the full filters).
ROUTER_FORBIDDEN = frozenset({"visible_entity_ids", "visibleEntityIds", "search_keyword", "searchKeyword",
                              "pagination", "page_size", "pageSize", "filters", "Filters", "Pagination",
                              "exec_ctx", "ExecCtx", "page_context", "PageContext"})
# Plain words a router may use for its own local variables (a list of filter words called `filters`).
ROUTER_LOCAL_WORDS = frozenset({"filters", "pagination"})
# ARCH003: the UI entry a request came from. Tools and artifacts may not even hold a view that carries it;
# capabilities read their views from the state (clarify reads RouterCtx.page), but never the origin.
ORIGIN_WORDS = frozenset({"origin", "Origin"})
TOOLS_FORBIDDEN = ORIGIN_WORDS | {"router_ctx", "RouterCtx", "page_context", "PageContext", "AgentState"}
EXECUTORS = ("agent/capabilities/",)
# ARCH002 watches every module that routes: the routing package and the graph's route node.
ROUTERS = ("agent/routing/", "agent/graph/route.py")
# ARCH004: serialisers that turn an object into raw JSON or a field dump.
JSON_MODULES = frozenset({"json", "orjson", "ujson", "simplejson"})


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    pattern: str  # the seed's degradation pattern this rule stops
    scope: tuple[str, ...]  # path prefixes under the checked root, posix style
    check: Callable[[ModuleInfo], Iterator[Finding]]
    waivable: bool = False
    # Templates under the scope: (line, column, message) for each violation in one template's text.
    template_check: Callable[[str], Iterator[tuple[int, int, str]]] | None = None

    def applies_to(self, relpath: str) -> bool:
        # A capability's own tests (agent/capabilities/<name>/tests/) are test code: only a rule that
        # watches tests/ reads them.
        if "/tests/" in relpath and "tests/" not in self.scope:
            return False
        return relpath.startswith(self.scope)


# ---- ARCH001: a whole context into a prompt ------------------------------------------------------


def _chain(node: ast.AST) -> tuple[str, list[str]] | None:
    """Return (root name, attribute/key path) for x, x.a, x["k"], x.get("k"); None for anything else."""
    path: list[str] = []
    while True:
        if isinstance(node, ast.Name):
            return node.id, path[::-1]
        if isinstance(node, ast.Attribute):
            path.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            key = node.slice
            path.append(key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else "[]")
            node = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            path.append(node.args[0].value)
            node = node.func.value
        else:
            return None


def _annotation_names(annotation: ast.expr | None) -> set[str]:
    if annotation is None:
        return set()
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return set()
    return {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}


class _TextScan:
    """Follow one prompt text expression and report every context view that reaches it unrendered."""

    def __init__(self, module: ModuleInfo, anchor: ast.AST) -> None:
        self.module = module
        scope = module.enclosing_function(anchor)
        self.bindings = {name: list(values) for name, values in module.bindings(scope).items()}
        self.context_params = {a.arg for a in parameters(scope) if _annotation_names(a.annotation) & CONTEXT_TYPES}
        self.followed: set[str] = set()
        self.findings: list[Finding] = []

    def is_context(self, root: str, path: list[str]) -> bool:
        if path and path[-1] == "text":  # ModelSummary.text: the allowed form
            return False
        if root == "state":
            return not path or path[0] in CONTEXT_KEYS
        return root in CONTEXT_ROOTS or root in self.context_params or bool(CONTEXT_KEYS.intersection(path))

    def reaches_context(self, root: str, path: list[str], depth: int = 0) -> bool:
        """Whether root.path is a context view, also through local aliases (view = state["exec_ctx"])."""
        if self.is_context(root, path):
            return True
        for value in self.bindings.get(root, []) if depth < 4 else []:
            chain = _chain(value)
            if chain is not None and chain[0] != root and self.reaches_context(chain[0], chain[1] + path, depth + 1):
                return True
        return False

    def scan(self, node: ast.AST, raw: bool) -> None:
        """raw: the value's string form lands in the prompt as it is."""
        chain = _chain(node)
        if chain is not None:
            root, path = chain
            if raw and self.reaches_context(root, path):
                shown = ast.unparse(node)
                self.findings.append((node, f"`{shown}` enters a prompt text unrendered; give the model "
                                            "ModelSummary.text or words from a renderer function"))
            elif raw and not path and root in self.bindings and root not in self.followed:
                self.followed.add(root)
                for value in self.bindings[root]:
                    self.scan(value, raw=True)
            for sub in ast.walk(node):  # lookups like WORDS[ctx.page] render through the table
                if isinstance(sub, ast.Subscript) and not isinstance(sub.slice, ast.Constant):
                    self.scan(sub.slice, raw=False)
            return
        if isinstance(node, ast.JoinedStr):
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    self.scan(value.value, raw=True)
        elif isinstance(node, ast.BinOp | ast.BoolOp | ast.Tuple | ast.List | ast.Set | ast.Starred):
            for child in ast.iter_child_nodes(node):
                self.scan(child, raw=raw)
        elif isinstance(node, ast.IfExp):
            self.scan(node.test, raw=False)
            self.scan(node.body, raw=raw)
            self.scan(node.orelse, raw=raw)
        elif isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            for gen in node.generators:
                if isinstance(gen.target, ast.Name):
                    self.bindings.setdefault(gen.target.id, []).append(gen.iter)
                self.scan(gen.iter, raw=False)
            self.scan(node.elt, raw=raw)
        elif isinstance(node, ast.Call):
            self._scan_call(node, raw)
        else:
            for child in ast.iter_child_nodes(node):
                self.scan(child, raw=False)

    def _scan_call(self, node: ast.Call, raw: bool) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        args: list[ast.AST] = [*node.args, *(k.value for k in node.keywords)]
        if name in STRINGIFIERS or name in DUMP_METHODS:
            for arg in args:
                self.scan(arg, raw=True)
            if isinstance(func, ast.Attribute) and name in DUMP_METHODS:
                self.scan(func.value, raw=True)
            return
        if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id in
                                                    self.module.imported_modules):
            # A method's receiver is the text it works on ("...".join(x), ctx.page.upper()).
            self.scan(func.value, raw=raw)
            for arg in args:
                self.scan(arg, raw=raw and name in {"join", "format", "format_map"})
            return
        for arg in args:  # a plain function renders its arguments (router_ctx_words(ctx))
            self.scan(arg, raw=False)


def _prompt_texts(module: ModuleInfo) -> Iterator[tuple[ast.AST, ast.expr]]:
    """Yield (anchor, text expression) for every PromptPart(text=...) and message dict {"content": ...}."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name != "PromptPart":
                continue
            for keyword in node.keywords:
                if keyword.arg == "text":
                    yield node, keyword.value
            if len(node.args) > 3:
                yield node, node.args[3]
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "content":
                    yield node, value


def check_full_context(module: ModuleInfo) -> Iterator[Finding]:
    for anchor, text in _prompt_texts(module):
        scan = _TextScan(module, anchor)
        scan.scan(text, raw=True)
        yield from scan.findings


# ---- ARCH002 / ARCH003: forbidden identifiers -----------------------------------------------------


def _identifier_uses(module: ModuleInfo, words: frozenset[str], *,
                     locals_exempt: frozenset[str] = frozenset()) -> Iterator[Finding]:
    """Yield every use of a word as a name, attribute, parameter, keyword, string key or import.

    A name in locals_exempt that the enclosing scope assigns itself is a local variable, not the
    field; what is assigned to it is checked like everything else.
    """
    for node in ast.walk(module.tree):
        hit: str | None = None
        if isinstance(node, ast.Attribute) and node.attr in words:
            hit = f"attribute .{node.attr}"
        elif isinstance(node, ast.Name) and node.id in words:
            scope = module.enclosing_function(node)
            bound = node.id in module.bindings(scope) or node.id in module.bindings(None)
            if not (node.id in locals_exempt and bound):
                hit = f"name {node.id}"
        elif isinstance(node, ast.arg) and node.arg in words:
            hit = f"parameter {node.arg}"
        elif isinstance(node, ast.keyword) and node.arg in words:
            hit = f"keyword {node.arg}="
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in words:
            hit = f"key {node.value!r}"
        elif isinstance(node, ast.alias) and (node.name.rsplit(".", 1)[-1] in words or node.asname in words):
            hit = f"import {node.name}"
        if hit is not None:
            yield node, hit


def check_router_fields(module: ModuleInfo) -> Iterator[Finding]:
    for node, hit in _identifier_uses(module, ROUTER_FORBIDDEN, locals_exempt=ROUTER_LOCAL_WORDS):
        yield node, f"router code touches {hit}: list data and exec-only fields stay out of routing (RouterCtx only)"


def check_origin(module: ModuleInfo) -> Iterator[Finding]:
    if module.relpath.startswith(EXECUTORS):
        for node, hit in _identifier_uses(module, ORIGIN_WORDS):
            yield node, (f"executor code touches {hit}: capabilities act the same whichever UI entry "
                         "sent the request; another entry needing other behaviour is another route")
        return
    for node, hit in _identifier_uses(module, TOOLS_FORBIDDEN):
        yield node, f"tool code touches {hit}: tools act on ExecCtx and never see where a request came from"


# ---- ARCH004: raw JSON of a context in a prompt ---------------------------------------------------


def check_raw_json(module: ModuleInfo) -> Iterator[Finding]:
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ImportFrom) and node.module in JSON_MODULES:
            for alias in node.names:
                if alias.name in {"dumps", "dump"}:
                    yield node, f"imports {node.module}.{alias.name}: no raw JSON is built where prompts are made"
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        func = node.func
        if func.attr in {"dumps", "dump"} and isinstance(func.value, ast.Name) and func.value.id in JSON_MODULES:
            yield node, f"{func.value.id}.{func.attr}(...): no raw JSON is built where prompts are made"
        elif func.attr in {"model_dump", "model_dump_json"}:
            yield node, f".{func.attr}(...): a model's raw fields do not belong where prompts are made"


PROMPT_MAKERS = ("agent/capabilities/", "agent/routing/", "agent/prompting/", "agent/graph/")

RULES: tuple[Rule, ...] = (
    Rule("ARCH001", "No whole context view in a prompt text",
         "the full context handed to a planning (LLM) node",
         PROMPT_MAKERS, check_full_context, waivable=True),
    Rule("ARCH002", "Router code never touches list data or exec-only fields",
         "the router reading list data to help judge intent",
         ROUTERS, check_router_fields),
    Rule("ARCH003", "Tools, artifacts and capabilities never see the request's origin",
         "a tool returning different results depending on where the request came from",
         ("agent/tools/", "agent/artifacts/", *EXECUTORS), check_origin),
    Rule("ARCH004", "No raw JSON or model dumps where prompts are made",
         "raw JSON filters pasted into an LLM prompt",
         PROMPT_MAKERS, check_raw_json, waivable=True),
    Rule("ARCH005", "Status, priority and page lists are declared once (pm_assistant/vocabulary.py)",
         "not from seed 003: one fact spelled in several places drifts",
         ("agent/", "bench/", "pm_assistant/", "projects/", "reports/", "tasks/", "tests/", "templates/"),
         check_respelled, waivable=True, template_check=check_template),
)
