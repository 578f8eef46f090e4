"""The capability recipe is a command: run in a copy of the tree, it makes one folder and the docs, nothing else,
and the copy passes the tests the change touches, the lint and the generated-document checks as written.

docs/ARCHITECTURE.md#how-to-change-it: "Add a capability (1 folder + regenerated docs)".
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import BIN, REPOSITORY

pytestmark = pytest.mark.long  # a copy of the tree, the command, the tests it touches: a few minutes

NAME, PAGE, BUTTON, LABEL_ZH = "standup", "task_list", "Standup list", "站会清单"
# The tests a new read-only capability with a button touches, besides its own: every table of buttons,
# capabilities and phrases, help and clarify, the router's schema, and the generated documents.
AFFECTED = ("agent/capabilities/help", "agent/capabilities/clarify", "tests/agent/test_quick_actions.py",
            "tests/agent/test_quick_buttons.py", "tests/agent/test_offline_router.py",
            "tests/agent/test_router_table.py", "tests/agent/test_llm_router.py", "tests/agent/test_retry_offer.py",
            "tests/architecture/test_document.py", "tests/architecture/test_allocation_table.py",
            "tests/architecture/test_design_tables.py", "tests/architecture/test_archcheck.py")


def _run(copy: Path, *command: str, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CELERY_TASK_ALWAYS_EAGER": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("DATABASE_URL", None)  # SQLite in the copy: its own database, whatever the suite runs on
    return subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def _files(root: Path) -> set[str]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    return {name for name in listed if (root / name).is_file()}


def _digests(root: Path, names: set[str]) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in names}


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, subprocess.CompletedProcess[str]]]:
    """A copy of the tree (the files git would commit) with the command run in it."""
    copy = tmp_path_factory.mktemp("recipe") / "tree"
    for name in _files(REPOSITORY):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPOSITORY / name, copy / name)
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    (copy / ".venv").symlink_to(BIN.parent)
    before = _digests(copy, _files(copy))
    done = _run(copy, sys.executable, "manage.py", "new_capability", NAME, "--page", PAGE, "--button", BUTTON,
                "--label-zh", LABEL_ZH)
    assert done.returncode == 0, done.stderr[-3000:]
    after = _digests(copy, _files(copy))
    copy.joinpath(".changed").write_text("\n".join(sorted(
        name for name in set(before) | set(after) if before.get(name) != after.get(name))), encoding="utf-8")
    yield copy, done


def test_the_command_writes_one_folder_and_regenerates_the_docs(scaffolded: tuple[Path, object]) -> None:
    copy, _ = scaffolded
    changed = copy.joinpath(".changed").read_text(encoding="utf-8").splitlines()
    folder = [name for name in changed if name.startswith(f"agent/capabilities/{NAME}/")]
    assert sorted(folder) == [f"agent/capabilities/{NAME}/{name}" for name in (
        "__init__.py", "node.py", "phrases.py", "prompts.py", "spec.py", "tests/__init__.py", f"tests/test_{NAME}.py",
        "tools.py")]
    assert set(changed) - set(folder) == {"docs/ARCHITECTURE.md", "docs/USAGE.md"}
    assert f"| `{NAME}` | `agent.capabilities.{NAME}.node:{NAME}` | no |" in (copy / "docs/ARCHITECTURE.md").read_text()
    assert f"**{BUTTON}**" in (copy / "docs/USAGE.md").read_text()


def test_the_new_capability_and_the_tests_it_touches_pass_as_generated(scaffolded: tuple[Path, object]) -> None:
    copy, _ = scaffolded
    tests = [f"agent/capabilities/{NAME}", *(path for path in AFFECTED if (copy / path).exists())]
    done = _run(copy, sys.executable, "-m", "pytest", *tests, "-q", "-p", "no:cacheprovider", "-n", "0",
                "-W", "ignore::pytest.PytestUnraisableExceptionWarning")
    assert done.returncode == 0, done.stdout[-5000:]
    assert f"agent/capabilities/{NAME}/tests/test_{NAME}.py" in _run(
        copy, sys.executable, "-m", "pytest", f"agent/capabilities/{NAME}", "--collect-only", "-q").stdout


def test_the_new_folder_passes_the_lint(scaffolded: tuple[Path, object]) -> None:
    copy, _ = scaffolded
    folder = f"agent/capabilities/{NAME}"
    for command in ((sys.executable, "-m", "ruff", "check", folder), (sys.executable, "-m", "mypy", folder),
                    (str(BIN / "lint-imports"),), (sys.executable, "-m", "archcheck")):
        done = _run(copy, *command)
        assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-3000:]}{done.stderr[-2000:]}"
    assert _run(copy, sys.executable, "manage.py", "architecture_doc", "--check").returncode == 0


def test_the_architecture_bench_stays_current(scaffolded: tuple[Path, object]) -> None:
    """The bench's router lists the suite's capabilities only: a new one leaves docs/EVOLUTION.md and README current."""
    copy, _ = scaffolded
    done = _run(copy, sys.executable, "-m", "bench.architectures", "--check")
    assert done.returncode == 0, done.stderr[-3000:]
