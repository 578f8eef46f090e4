"""Import contracts (.importlinter): the real tree keeps them, and every one of them can break."""
from __future__ import annotations

import configparser
import os
import re
import subprocess
from pathlib import Path

from .conftest import BIN, REPOSITORY, plant

# One planted module per contract: (contract section, module path, source).
PLANTS = [
    ("flow", "agent/llm/_planted_flow.py", "from agent.graph import nodes\n"),
    ("page-context", "agent/page_context/_planted.py", "import agent.models\n"),
    ("assembler-pure", "agent/context/_planted.py", "from django.db import models\n"),
    ("routing", "agent/routing/_planted.py", "import agent.tools.task_tools\n"),
    ("tools", "agent/tools/_planted.py", "from agent.state import AgentState\n"),
    ("task-tools", "agent/tools/task_tools.py", "from agent.prompting.messages import PromptPart\n"),
    ("llm", "agent/llm/_planted_llm.py", "from agent.context.three_views import ExecCtx\n"),
    ("capabilities", "agent/capabilities/_planted.py", "from agent.routing import llm_router\n"),
    ("prompting", "agent/prompting/_planted.py", "import agent.llm.client\n"),
    ("openai-sdk", "projects/_planted_openai.py", "import openai\n"),
    ("openai-provider", "agent/capabilities/_planted_provider.py",
     "from agent.llm.openai_provider import OpenAIProvider\n"),
    ("artifacts", "agent/artifacts/_planted.py", "from agent.tools.runner import ToolRunner\n"),
    ("artifacts", "agent/artifacts/_planted_views.py", "from agent.context.three_views import RouterCtx\n"),
    # agent.models and agent.run.trace are modules, not packages: the planted import is appended to them.
    ("records", "agent/models.py", "from agent.artifacts.store import artifact_open\n"),
    ("records", "agent/run/trace.py", "from agent.state import AgentState\n"),
    ("reports-server-only", "reports/_planted.py", "from agent.run.trace import TraceRecorder\n"),
    # The cycle this contract ended: a project module reading tasks.
    ("apps", "projects/_planted_cycle.py", "from tasks.selectors import task_list_for_user\n"),
    ("apps", "tasks/_planted_up.py", "from reports.week import IsoWeek\n"),
    ("shared-helpers", "pm_assistant/_planted.py", "from projects.models import Project\n"),
    # A capability's spec that reaches into the agent, and a capability's own tool that reads the state.
    ("capability-specs", "agent/capabilities/crud/spec.py", "from agent.tools import task_tools\n"),
    ("capability-tools", "agent/capabilities/decompose/tools.py", "from agent.state import AgentState\n"),
]


def _contracts(config_path: Path) -> dict[str, str]:
    """Return contract section id -> contract name."""
    config = configparser.ConfigParser()
    config.read(config_path, encoding="utf-8")
    prefix = "importlinter:contract:"
    return {s.removeprefix(prefix): config[s]["name"] for s in config.sections() if s.startswith(prefix)}


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"}
    return subprocess.run([str(BIN / "lint-imports"), str(root / ".importlinter"), "--no-cache"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)


def _broken_sections(output: str) -> dict[str, str]:
    """Split the 'Broken contracts' part of the report into contract name -> its explanation."""
    _, _, broken = output.partition("Broken contracts\n----------------\n")
    headers = list(re.finditer(r"^(?P<name>.+)\n-+\n", broken, re.M))
    return {m["name"]: broken[m.end():headers[i + 1].start() if i + 1 < len(headers) else len(broken)]
            for i, m in enumerate(headers)}


def test_real_tree_keeps_every_contract() -> None:
    result = subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=REPOSITORY, capture_output=True,
                            text=True, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stdout + result.stderr
    count = len(_contracts(REPOSITORY / ".importlinter"))
    assert f"Contracts: {count} kept, 0 broken." in result.stdout


def test_every_contract_has_a_plant() -> None:
    assert {section for section, _, _ in PLANTS} == set(_contracts(REPOSITORY / ".importlinter"))


def test_each_planted_import_breaks_its_contract(repo_copy: Path) -> None:
    clean = _lint_imports(repo_copy)
    assert clean.returncode == 0, "the copy itself must pass first:\n" + clean.stdout + clean.stderr

    for _, relpath, source in PLANTS:
        existing = repo_copy / relpath
        if existing.exists():
            existing.write_text(existing.read_text() + source)
        else:
            plant(repo_copy, relpath, source)
    result = _lint_imports(repo_copy)
    assert result.returncode == 1, result.stdout + result.stderr
    names = _contracts(repo_copy / ".importlinter")
    sections = _broken_sections(result.stdout)
    for section, relpath, _ in PLANTS:
        module = relpath.removesuffix(".py").replace("/", ".")
        name = names[section]
        assert f"{name} BROKEN" in result.stdout, f"{name} stayed kept:\n{result.stdout}"
        assert module in sections.get(name, ""), f"{name} broke, but not because of {module}:\n{result.stdout}"
