"""Architecture rules that import contracts cannot express: seed 003's degradation patterns, and lists declared once.

Run `python -m archcheck` from the repository root; docs/ARCHITECTURE.md lists the rules.
"""
from .check import Violation, check_source, check_tree
from .rules import RULES, Rule

__all__ = ["RULES", "Rule", "Violation", "check_source", "check_tree"]
