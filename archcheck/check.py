"""Run the rules over a tree laid out like the repository (ROOT/agent/...)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .rules import RULES, Rule
from .source import ModuleInfo

# A capability's tests (agent/capabilities/<name>/tests/) drive the app from outside, as tests/ do.
SKIPPED_PARTS = frozenset({"migrations", "__pycache__", "tests"})


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


def check_tree(root: Path, rules: tuple[Rule, ...] = RULES) -> list[Violation]:
    """Check every module under root/agent and return the violations in path order."""
    found: list[Violation] = []
    for path in sorted((root / "agent").rglob("*.py")):
        relpath = path.relative_to(root).as_posix()
        if SKIPPED_PARTS.intersection(path.relative_to(root).parts):
            continue
        found.extend(check_source(relpath, path.read_text(encoding="utf-8"), rules))
    return found
