"""Ruff's banned-api rule (TID251) keeps the openai SDK inside agent/llm/openai_provider.py."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .conftest import BIN, plant

SDK_USE = """
import openai

CLIENT = openai.OpenAI(api_key="unset")
"""


def _ruff(root: Path, *paths: str) -> str:
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--config", str(root / "pyproject.toml"), "--no-cache",
         "--output-format", "concise", *paths],
        cwd=root, capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout


@pytest.mark.parametrize("relpath", ["agent/tools/sdk_shortcut.py", "agent/llm/client_direct.py",
                                     "agent/capabilities/query_fast.py", "agent/llm/providers.py"])
def test_openai_import_outside_the_provider_is_banned(repo_copy: Path, relpath: str) -> None:
    plant(repo_copy, relpath, SDK_USE)
    output = _ruff(repo_copy, relpath)
    assert f"{relpath}:1:8: TID251" in output, output


def test_the_provider_module_may_import_openai(repo_copy: Path) -> None:
    relpath = "agent/llm/openai_provider.py"
    assert "import openai" in (repo_copy / relpath).read_text()
    assert "TID251" not in _ruff(repo_copy, relpath)
