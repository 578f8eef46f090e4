"""Helpers for the architecture tests: the repository root and temporary trees laid out like it."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path
from textwrap import dedent

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PACKAGES = ("agent", "pm_assistant", "projects", "reports", "tasks")


def plant(root: Path, relpath: str, source: str) -> Path:
    """Write a module at root/relpath, creating its packages on the way."""
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in path.relative_to(root).parents:
        if parent != Path(".") and not (root / parent / "__init__.py").exists():
            (root / parent / "__init__.py").write_text("")
    path.write_text(dedent(source).lstrip())
    return path


@pytest.fixture
def repo_copy(tmp_path: Path) -> Path:
    """A copy of the project's packages and lint configuration, to plant violations in."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in PACKAGES:
        shutil.copytree(REPOSITORY / package, tmp_path / package, ignore=ignore)
    for config in (".importlinter", "pyproject.toml"):
        shutil.copy(REPOSITORY / config, tmp_path / config)
    return tmp_path
