"""Every citation of the design contract names a section docs/DESIGN.md has: none dangles."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import REPOSITORY

DESIGN = REPOSITORY / "docs" / "DESIGN.md"
# Where code, templates and docs live; the virtualenv, caches and generated output are not scanned.
SCANNED = ("agent", "archcheck", "bench", "docs", "pm_assistant", "projects", "reports", "static", "tasks",
           "templates", "tests", "README.md", "Makefile", "pyproject.toml", ".importlinter", "docker-compose.yml",
           "Dockerfile")
TEXT_SUFFIXES = frozenset({".py", ".md", ".html", ".js", ".css", ".toml", ".txt", ".yml", ".yaml", ".cfg", ".sh", ""})
SKIPPED_PARTS = frozenset({"__pycache__", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
# docs/DESIGN.md, DESIGN.md#anchor (a link from a page beside it), "DESIGN §3" and a bare "§3".
CITATION = re.compile(r"(?:docs/)?DESIGN\.md(?:#(?P<anchor>[\w-]+))?|(?:DESIGN\s*)?§\s*(?P<number>\d+)")
HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def _slug(title: str) -> str:
    """Return the anchor a Markdown renderer (GitHub's rules) gives a heading."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def design_sections(text: str) -> tuple[set[str], set[str]]:
    """Return the anchors of the document's headings and the numbers of its numbered headings ("## 3. ...")."""
    anchors: set[str] = set()
    numbers: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match is None:
            continue
        slug = _slug(match["title"])
        anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
        number = re.match(r"(\d+)[.)]?\s", match["title"])
        if number:
            numbers.add(number.group(1))
    return anchors, numbers


def dangling_citations(text: str, anchors: set[str], numbers: set[str]) -> list[tuple[int, str]]:
    """Return (line, citation) for each citation in text that names no section of the document."""
    found = []
    for match in CITATION.finditer(text):
        anchor, number = match["anchor"], match["number"]
        if (anchor is not None and anchor not in anchors) or (number is not None and number not in numbers):
            found.append((text.count("\n", 0, match.start()) + 1, match.group(0)))
    return found


def _scanned_files() -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        path = REPOSITORY / name
        candidates = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        files += [p for p in candidates if p.suffix in TEXT_SUFFIXES and not SKIPPED_PARTS.intersection(p.parts)
                  and p.resolve() != Path(__file__).resolve()]
    return files


def test_the_design_document_holds_each_part_of_the_contract() -> None:
    anchors, _ = design_sections(DESIGN.read_text(encoding="utf-8"))
    assert {"where-the-ideas-come-from", "the-flow-of-one-request", "page-context", "the-three-context-views",
            "routing", "capabilities", "data-the-model-must-not-carry", "http-api", "layout", "runtime-parts",
            "budgets"} <= anchors


def test_every_citation_of_the_design_resolves() -> None:
    anchors, numbers = design_sections(DESIGN.read_text(encoding="utf-8"))
    citing: set[str] = set()
    problems = []
    for path in _scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        if CITATION.search(text):
            citing.add(path.relative_to(REPOSITORY).as_posix())
        problems += [f"{path.relative_to(REPOSITORY)}:{line}: {citation}"
                     for line, citation in dangling_citations(text, anchors, numbers)]
    # Python, JavaScript and Markdown that cite the contract: the scan reads each kind of file.
    assert {"pm_assistant/vocabulary.py", "static/js/page_context.js", "docs/ARCHITECTURE.md"} <= citing
    assert not problems, ("these citations name no heading of docs/DESIGN.md; cite a section by its anchor, "
                          "e.g. docs/DESIGN.md#routing:\n" + "\n".join(problems))


@pytest.mark.parametrize(("text", "dangles"), [
    ('"""The HTTP API (DESIGN §7)."""', True),
    ("# the pages, see §2", True),
    ("# see docs/DESIGN.md#no-such-section", True),
    ("[the views](DESIGN.md#the-three-context-view)", True),
    ("# see docs/DESIGN.md#routing", False),
    ("[the views](DESIGN.md#the-three-context-views)", False),
    ("the whole contract: docs/DESIGN.md.", False),
])
def test_a_citation_of_a_missing_section_is_reported(text: str, dangles: bool) -> None:
    anchors, numbers = design_sections(DESIGN.read_text(encoding="utf-8"))
    assert bool(dangling_citations(text, anchors, numbers)) is dangles


def test_numbered_and_repeated_headings_get_their_anchors() -> None:
    anchors, numbers = design_sections("# Title\n## 3. Routing\n```\n## not a heading\n```\n## Notes\n## Notes\n")
    assert anchors == {"title", "3-routing", "notes", "notes-1"}
    assert numbers == {"3"}


# A merge that stopped half-way leaves these lines; a document or module holding one is broken.
CONFLICT_MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.MULTILINE)


def test_no_file_holds_a_merge_conflict_marker() -> None:
    found = [f"{path.relative_to(REPOSITORY)}:{text.count(chr(10), 0, match.start()) + 1}"
             for path in _scanned_files()
             for text in [path.read_text(encoding="utf-8", errors="replace")]
             for match in CONFLICT_MARKER.finditer(text)]
    assert not found, "resolve these merge conflict markers:\n" + "\n".join(found)


@pytest.mark.parametrize(("text", "marked"), [
    ("<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> topic\n", True),
    ("a heading\n=======\n", True),
    ("a heading\n========\n", False),
    ("x = '<<<<<<<<'\n", False),
])
def test_a_conflict_marker_is_recognised(text: str, marked: bool) -> None:
    assert bool(CONFLICT_MARKER.search(text)) is marked
