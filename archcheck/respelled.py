"""ARCH005: a list of statuses, priorities or pages is spelled once, in pm_assistant/vocabulary.py.

A literal that lists two or more of one kind's names elsewhere (a tuple, list or set of them, a
`Literal[...]`, a comma-joined string, or a template that writes them out) repeats the
declaration, and drifts from it the day a status or a page is added. Mappings keyed by the names
attach data to each one and are not lists.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping

from pm_assistant.vocabulary import PAGES, PRIORITIES, STATUSES

from .source import ModuleInfo

Finding = tuple[ast.AST, str]
DECLARED_IN = "pm_assistant/vocabulary.py"
# The kinds of names, each with where its lists are declared (what a message tells to use instead).
KINDS: Mapping[str, tuple[frozenset[str], str]] = {
    "status": (frozenset(STATUSES), "STATUSES, OPEN_STATUSES or STATUS_LABELS"),
    "priority": (frozenset(PRIORITIES), "PRIORITIES or PRIORITY_LABELS"),
    "page": (frozenset(PAGES), "PAGES"),
}
# Task.Status.DONE and Task.Priority.P1 name a status or a priority as well as "done" and "P1" do.
_ENUMS = {"Status": "status", "Priority": "priority"}


def _name(node: ast.AST) -> tuple[str, str] | tuple[None, None]:
    """Return (kind, name) when the node spells one status, priority or page; else (None, None)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        for kind, (names, _) in KINDS.items():
            if node.value in names:
                return kind, node.value
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr in _ENUMS
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "Task"):
        kind = _ENUMS[node.value.attr]
        value = node.attr.lower() if kind == "status" else node.attr
        if value in KINDS[kind][0]:
            return kind, value
    return None, None


def _listed(elements: list[ast.expr]) -> tuple[str, list[str]] | None:
    """Return (kind, names) when the elements are two or more names of one kind and nothing else spelled."""
    kinds: set[str] = set()
    names: list[str] = []
    for element in elements:
        kind, name = _name(element)
        if kind is None:
            if isinstance(element, ast.Constant):  # ("status", "todo", "done"): a record, not a list of statuses
                return None
            continue
        kinds.add(kind)
        names.append(str(name))
    if len(kinds) != 1 or len(set(names)) < 2:
        return None
    return kinds.pop(), names


def _message(kind: str, names: list[str]) -> str:
    declared = KINDS[kind][1]
    return (f"re-spells a list of {kind} names ({', '.join(names)}): derive it from {declared} in "
            f"{DECLARED_IN}, or declare the new list there")


def _button_pages(tree: ast.AST) -> set[int]:
    """The page tuples of QuickActionSpec(...) calls: which pages show a button is the button's own fact."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "QuickActionSpec":
            found.update(id(arg) for arg in node.args[2:3])
            found.update(id(kw.value) for kw in node.keywords if kw.arg == "pages")
    return found


def check_respelled(module: ModuleInfo) -> Iterator[Finding]:
    if module.relpath == DECLARED_IN:
        return
    declared_here = _button_pages(module.tree)
    for node in ast.walk(module.tree):
        if id(node) in declared_here:
            continue
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            found = _listed(node.elts)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "," in node.value:
            found = _listed([ast.Constant(part.strip()) for part in node.value.split(",")])
        else:
            continue
        if found is not None:
            yield node, _message(*found)


# ---- templates -------------------------------------------------------------------------------------

_VARIABLE = re.compile(r"{{.*?}}")
_TAG = re.compile(r"{%.*?%}")
# A name written out in markup: a class suffix (status-done), a query or attribute value (=done, "done").
_SPELLED = r"(?:(?<=[a-z]-)|(?<==)|(?<=[\"']))({names})(?=[\"'&\s>,]|$)"


def _patterns() -> Iterator[tuple[str, re.Pattern[str], re.Pattern[str]]]:
    for kind, (names, _) in KINDS.items():
        alternatives = "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))
        run = re.compile(rf"(?<![\w.-])(?:{alternatives})(?:\s*,\s*(?:{alternatives}))+(?![\w-])")
        yield kind, run, re.compile(_SPELLED.format(names=alternatives))


def _blank(match: re.Match[str]) -> str:
    """Keep the columns, lose the text: "{{ a.done }}, {{ a.blocked }}" must not read as a list."""
    return "~" * len(match.group(0))


def check_template(text: str) -> Iterator[tuple[int, int, str]]:
    """Yield (line, column, message) for each status, priority or page list a template writes out."""
    spelled: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _VARIABLE.sub(_blank, raw)  # {{ stats.done }} reads a value
        markup = _TAG.sub(_blank, line)  # {% if t.status != "done" %} compares with one name, as code may
        for kind, run, single in _patterns():
            for match in run.finditer(line):
                yield number, match.start() + 1, _message(kind, re.split(r"\s*,\s*", match.group(0)))
            for match in single.finditer(markup):
                seen = spelled[kind]
                if match.group(1) in seen:
                    continue
                seen.append(match.group(1))
                if len(seen) == 2:  # reported once, where the second name of the kind appears
                    yield number, match.start() + 1, (_message(kind, seen) + "; loop over the list a view "
                                                      "or a template tag passes instead")
