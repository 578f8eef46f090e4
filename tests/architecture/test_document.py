"""docs/ARCHITECTURE.md and docs/USAGE.md: their generated sections agree with the code."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agent.management.commands.architecture_doc import (
    COMMAND,
    REQUIRED,
    design_path,
    document_path,
    document_render,
    render_graph,
    usage_path,
)

from .conftest import REPOSITORY


def test_document_matches_the_code() -> None:
    text = document_path().read_text(encoding="utf-8")
    assert document_render(text) == text, (
        f"docs/ARCHITECTURE.md disagrees with the code (graph, views, contracts or rules changed); "
        f"run `{COMMAND}` and commit the result.")


def test_the_usage_button_table_matches_the_quick_actions() -> None:
    text = usage_path().read_text(encoding="utf-8")
    assert document_render(text, name="USAGE.md") == text, (
        f"docs/USAGE.md's button table disagrees with the capabilities' buttons; run `{COMMAND}` and commit.")
    assert "| task_detail | **Break down** (sidebar) | `quick_button` · `decompose_task` | `decompose` | 0 |" in text


def test_the_design_tables_match_the_page_context_and_the_allocation() -> None:
    text = design_path().read_text(encoding="utf-8")
    assert document_render(text, name="DESIGN.md") == text, (
        f"docs/DESIGN.md's PageContext or view table disagrees with the code; run `{COMMAND}` and commit.")
    assert "| `visibleEntityIds` | list of int | at most 500 items |" in text
    assert "| origin | yes | **never** | no |" in text and "| visibleEntityIds | **never** |" in text


def test_document_shows_the_graph_and_the_allocation() -> None:
    text = document_path().read_text(encoding="utf-8")
    assert "```mermaid" in text and "route -.-> crud;" in text
    assert "| `origin` | `origin` (as is) | never (ARCH003) | — |" in text
    assert "| `visibleEntityIds` | never (ARCH002) |" in text


def _node_rows() -> dict[str, list[str]]:
    """The generated node table as node -> [function, reads, writes]."""
    rows = [line.strip("|").split("|") for line in render_graph().splitlines() if line.startswith("| `")]
    return {cells[0].strip().strip("`"): [c.strip() for c in cells[1:]] for cells in rows}


def test_the_node_table_sees_through_the_tracing_wrapper() -> None:
    rows = _node_rows()
    assert rows["crud"][0] == "`agent.capabilities.crud.node.crud`"
    assert "`exec_ctx`" in rows["crud"][1] and "`exec_ctx`" in rows["query"][1]
    assert "`model_summary`" in rows["query"][1]
    assert rows["clarify"][0] == "`agent.capabilities.clarify.node.clarify`" and rows["clarify"][1] == "`router_ctx`"
    # Each node receives only its input schema: crud cannot even read RouterCtx (and with it the origin).
    assert "router_ctx" not in rows["crud"][1] and "router_ctx" not in rows["query"][1]
    assert all("_traced" not in row[0] for row in rows.values())


@pytest.fixture
def doc_copy(settings: Any, tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    shutil.copy(REPOSITORY / "docs" / "ARCHITECTURE.md", tmp_path / "docs" / "ARCHITECTURE.md")
    shutil.copy(REPOSITORY / "docs" / "USAGE.md", tmp_path / "docs" / "USAGE.md")
    shutil.copy(REPOSITORY / "docs" / "DESIGN.md", tmp_path / "docs" / "DESIGN.md")
    shutil.copy(REPOSITORY / ".importlinter", tmp_path / ".importlinter")
    settings.BASE_DIR = tmp_path
    return tmp_path / "docs" / "ARCHITECTURE.md"


@pytest.mark.parametrize(("name", "block"), sorted((name, block) for name, blocks in REQUIRED.items()
                                                    for block in blocks))
def test_check_fails_on_a_stale_section_and_the_command_repairs_it(doc_copy: Path, name: str, block: str) -> None:
    documents = {path.name: path.read_text(encoding="utf-8") for path in doc_copy.parent.iterdir()}
    fresh = documents[name]
    start = fresh.index(f"<!-- generated:{block} -->\n") + len(f"<!-- generated:{block} -->\n")
    end = fresh.index(f"<!-- /generated:{block} -->")
    (doc_copy.parent / name).write_text(fresh[:start] + "| stale | table |\n" + fresh[end:], encoding="utf-8")

    with pytest.raises(CommandError, match="run `.venv/bin/python manage.py architecture_doc`"):
        call_command("architecture_doc", "--check")
    call_command("architecture_doc")
    assert {path.name: path.read_text(encoding="utf-8") for path in doc_copy.parent.iterdir()} == documents
    call_command("architecture_doc", "--check")


def test_missing_markers_are_an_error(doc_copy: Path) -> None:
    doc_copy.write_text("# Architecture\n\nNo generated sections.\n", encoding="utf-8")
    with pytest.raises(CommandError, match="lacks the markers"):
        call_command("architecture_doc", "--check")
