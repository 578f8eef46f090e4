"""One parsed module and the scope facts the rules ask about."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cached_property

Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _targets(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _targets(element)]
    if isinstance(target, ast.Starred):
        return _targets(target.value)
    return []


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """Return the nodes of a scope without those of functions or classes nested in it."""
    found: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, _NESTED):
            stack.extend(ast.iter_child_nodes(node))
    return found


def parameters(scope: Scope | None) -> list[ast.arg]:
    if scope is None:
        return []
    a = scope.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
            *([a.kwarg] if a.kwarg else [])]


@dataclass
class ModuleInfo:
    relpath: str
    tree: ast.Module
    lines: list[str]
    _parents: dict[ast.AST, ast.AST] = field(default_factory=dict, repr=False)
    _bindings: dict[int, dict[str, list[ast.expr]]] = field(default_factory=dict, repr=False)

    @classmethod
    def parse(cls, relpath: str, source: str) -> ModuleInfo:
        tree = ast.parse(source, filename=relpath)
        module = cls(relpath=relpath, tree=tree, lines=source.splitlines())
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                module._parents[child] = parent
        return module

    @cached_property
    def imported_modules(self) -> set[str]:
        return {(alias.asname or alias.name.split(".")[0]) for node in ast.walk(self.tree)
                if isinstance(node, ast.Import) for alias in node.names}

    def enclosing_function(self, node: ast.AST) -> Scope | None:
        current = self._parents.get(node)
        while current is not None and not isinstance(current, Scope):
            current = self._parents.get(current)
        return current

    def bindings(self, scope: Scope | None) -> dict[str, list[ast.expr]]:
        """Names assigned in a scope (not its parameters) mapped to the expressions assigned to them."""
        key = id(scope)
        if key not in self._bindings:
            found: dict[str, list[ast.expr]] = {}
            for node in _own_nodes(scope if scope is not None else self.tree):
                pairs: list[tuple[ast.AST, ast.expr]] = []
                if isinstance(node, ast.Assign):
                    pairs = [(target, node.value) for target in node.targets]
                elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                    pairs = [(node.target, node.value)]
                elif isinstance(node, ast.For | ast.AsyncFor):
                    pairs = [(node.target, node.iter)]
                elif isinstance(node, ast.NamedExpr):
                    pairs = [(node.target, node.value)]
                elif isinstance(node, ast.With | ast.AsyncWith):
                    pairs = [(item.optional_vars, item.context_expr) for item in node.items if item.optional_vars]
                for target, value in pairs:
                    for name in _targets(target):
                        found.setdefault(name, []).append(value)
            self._bindings[key] = found
        return self._bindings[key]

    def waiver(self, node: ast.AST, rule_id: str) -> str | None:
        """Return the reason of a `# archcheck: allow <rule_id> <reason>` on the node's lines ("" if none given).

        A comment line of its own right above the node counts too (a long line has no room for one).
        None means the lines carry no waiver for this rule.
        """
        first = getattr(node, "lineno", 1)
        last = getattr(node, "end_lineno", None) or first
        if first > 1 and self.lines[first - 2].lstrip().startswith("#"):
            first -= 1
        pattern = re.compile(rf"#\s*archcheck:\s*allow\s+{re.escape(rule_id)}\b(.*)$")
        for line in self.lines[first - 1:last]:
            match = pattern.search(line)
            if match:
                return match.group(1).strip()
        return None
