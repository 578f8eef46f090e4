"""`python -m archcheck [--root DIR]`: print every violation as path:line:col: RULE message; exit 1 if any."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .check import check_tree
from .rules import RULES

REPOSITORY = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m archcheck", description=__doc__)
    parser.add_argument("--root", type=Path, default=REPOSITORY,
                        help="directory that holds agent/ (default: this repository)")
    parser.add_argument("--list", action="store_true", help="list the rules and exit")
    args = parser.parse_args(argv)
    if args.list:
        for rule in RULES:
            print(f"{rule.id}  {rule.title}  [{', '.join(rule.scope)}]")
        return 0
    if not (args.root / "agent").is_dir():
        print(f"archcheck: {args.root / 'agent'} is not a directory", file=sys.stderr)
        return 2
    violations = check_tree(args.root)
    for violation in violations:
        print(violation)
    checked = ", ".join(rule.id for rule in RULES)
    if violations:
        print(f"archcheck: {len(violations)} violation(s) of {checked}; see docs/ARCHITECTURE.md", file=sys.stderr)
        return 1
    print(f"archcheck: {checked} hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
