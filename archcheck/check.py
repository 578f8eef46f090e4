"""Run the rules over a tree laid out like the repository (ROOT/agent/..., ROOT/templates/...)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .rules import RULES, Rule
from .source import ModuleInfo

SKIPPED_PARTS = frozenset({"migrations", "__pycache__"})
# The folders of Python code the rules may watch (each rule narrows to its own scope), and of templates.
CODE_FOLDERS = ("agent", "bench", "pm_assistant", "projects", "reports", "tasks", "tests")
TEMPLATE_FOLDER = "templates"
# {# archcheck: allow ARCH005 <reason> #}: the reason ends where the comment does.
_TEMPLATE_WAIVER = r"archcheck:\s*allow\s+{rule}\b([^#]*)"


@dataclass(frozen=True, order=True)
class Violation:
    path: str
    line: int
    col: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.rule} {self.message}"


def _module_violations(module: ModuleInfo, rules: tuple[Rule, ...]) -> list[Violation]:
    found = []
    for rule in rules:
        if not rule.applies_to(module.relpath):
            continue
        for node, message in rule.check(module):
            if rule.waivable:
                reason = module.waiver(node, rule.id)
                if reason:
                    continue
                if reason == "":
                    message += f" (a waiver needs a reason: # archcheck: allow {rule.id} <reason>)"
            found.append(Violation(module.relpath, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1,
                                   rule.id, message))
    return found


def check_source(relpath: str, source: str, rules: tuple[Rule, ...] = RULES) -> list[Violation]:
    """Check one module's source as if it lived at relpath (posix, relative to the root)."""
    try:
        module = ModuleInfo.parse(relpath, source)
    except SyntaxError as exc:
        return [Violation(relpath, exc.lineno or 1, exc.offset or 1, "ARCH000", f"cannot parse: {exc.msg}")]
    return sorted(set(_module_violations(module, rules)))


def check_template_source(relpath: str, text: str, rules: tuple[Rule, ...] = RULES) -> list[Violation]:
    """Check one template's text as if it lived at relpath; `{# archcheck: allow RULE reason #}` waives a line."""
    lines = text.splitlines()
    found = []
    for rule in rules:
        if rule.template_check is None or not rule.applies_to(relpath):
            continue
        for line, col, message in rule.template_check(text):
            waiver = re.search(_TEMPLATE_WAIVER.format(rule=re.escape(rule.id)), lines[line - 1])
            if waiver and waiver.group(1).strip():
                continue
            found.append(Violation(relpath, line, col, rule.id, message))
    return sorted(set(found))


def check_tree(root: Path, rules: tuple[Rule, ...] = RULES) -> list[Violation]:
    """Check every module and template under root and return the violations in path order."""
    found: list[Violation] = []
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            if SKIPPED_PARTS.intersection(path.relative_to(root).parts):
                continue
            found.extend(check_source(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"), rules))
    for path in sorted((root / TEMPLATE_FOLDER).rglob("*.html")):
        found.extend(check_template_source(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"), rules))
    return found
