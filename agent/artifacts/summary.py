"""The bounded, deterministic summary that stands in a prompt for an externalized result (no LLM).

It says it is a summary, counts, names the fields, shows value distributions of a few known
fields and the first items' titles as previews cut from the stored text, and names the
inspection tools the model is offered. Whatever the result, the text stays within SUMMARY_MAX_CHARS.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .encode import NDJSON, Encoded
from .preview import Preview, preview_check, preview_make
from .refs import ArtifactRef

SUMMARY_MAX_CHARS = 2000
LINE_MAX_CHARS = 240
PREVIEW_MAX_CHARS = 80
PREVIEW_ITEMS = 3
DISTRIBUTION_FIELDS = ("status", "priority", "assignee", "project")
DISTRIBUTION_TOP = 6
VALUE_MAX_CHARS = 40
TITLE_KEYS = ("title", "name")
FIELDS_SHOWN = 30


@dataclass(frozen=True)
class Summary:
    text: str
    previews: tuple[Preview, ...]


def value_words(value: Any) -> str:
    """A value as short words; user text quoted through JSON so control characters are escaped."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return json.dumps(value[:VALUE_MAX_CHARS] + ("…" if len(value) > VALUE_MAX_CHARS else ""),
                          ensure_ascii=False)
    return json.dumps(value)


def _cap(line: str) -> str:
    return line if len(line) <= LINE_MAX_CHARS else line[:LINE_MAX_CHARS - 1] + "…"


def _distribution(items: list[Any], field: str) -> str | None:
    values = [row[field] for row in items if isinstance(row, dict) and field in row]
    if not values or not all(v is None or isinstance(v, (str, int, float, bool)) for v in values):
        return None
    counts = Counter(values).most_common()
    shown = ", ".join(f"{value_words(v)} {n}" for v, n in counts[:DISTRIBUTION_TOP])
    rest = len(counts) - DISTRIBUTION_TOP
    return _cap(f"{field}: {shown}" + (f", … (+{rest} other values)" if rest > 0 else ""))


def _title_span(line: str, row: Any) -> tuple[int, int] | None:
    """Where the row's title value (as stored, JSON-escaped, without quotes) sits in its line."""
    if not isinstance(row, dict):
        return None
    for key in TITLE_KEYS:
        value = row.get(key)
        if isinstance(value, str):
            needle = json.dumps(key, ensure_ascii=False) + ":" + json.dumps(value, ensure_ascii=False)
            at = line.find(needle)
            if at >= 0:
                start = at + len(needle) - len(json.dumps(value, ensure_ascii=False)) + 1
                return start, at + len(needle) - 1
    return None


def first_previews(encoded: Encoded, *, raw_sha256: str, count: int = PREVIEW_ITEMS) -> list[tuple[int, Preview]]:
    """Cut previews of the first items' titles (or first line starts) from the stored text."""
    raw, found, pos = encoded.text, [], 0
    for number in range(1, count + 1):
        if pos >= len(raw):
            break
        end_of_line = raw.find("\n", pos)
        end_of_line = len(raw) if end_of_line < 0 else end_of_line
        row = encoded.items[number - 1] if encoded.items is not None and number <= len(encoded.items) else None
        span = _title_span(raw[pos:end_of_line], row) if encoded.content_type == NDJSON else None
        start, end = (pos + span[0], pos + span[1]) if span else (pos, end_of_line)
        preview = preview_make(raw, start, min(end, start + PREVIEW_MAX_CHARS), raw_sha256=raw_sha256)
        found.append((number, preview))
        pos = end_of_line + 1
    return found


def size_words(size: int) -> str:
    """A byte count as words (bytes, KB or MB)."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} bytes"


def summary_build(*, artifact: ArtifactRef, encoded: Encoded, raw_sha256: str) -> Summary:
    """Write the summary of an externalized result, bounded by SUMMARY_MAX_CHARS."""
    flags = [name for name, on in (("summary", artifact.is_summary), ("truncated", artifact.truncated),
                                   ("incomplete", artifact.incomplete)) if on]
    head = [
        f"SUMMARY of artifact {artifact.ref} (not the full result; its rows are not in this prompt).",
        _cap(f"Source: {artifact.tool}; {artifact.item_count} items, {encoded.line_count} lines, "
             f"{size_words(artifact.size_bytes)}, {artifact.content_type}; flags: {', '.join(flags) or 'none'}."),
    ]
    # The tools the model is offered take no ref: the system binds the stored result to them.
    tail = ["To read more of it, call outline, search, head, tail or context; "
            "the system finds the stored result for you."]
    body: list[tuple[str, Preview | None]] = []
    scalars = {k: v for k, v in encoded.meta.items() if v is None or isinstance(v, (str, int, float, bool))}
    if scalars:
        body.append((_cap("Result: " + ", ".join(f"{k}={value_words(v)}" for k, v in sorted(scalars.items()))),
                     None))
    fields = encoded.schema.get("fields") or {}
    if fields:
        names = [f"{k} ({t})" for k, t in list(fields.items())[:FIELDS_SHOWN]]
        more = f", … (+{len(fields) - FIELDS_SHOWN} more)" if len(fields) > FIELDS_SHOWN else ""
        body.append((_cap("Fields: " + ", ".join(names) + more), None))
    for field in DISTRIBUTION_FIELDS if encoded.items else ():
        line = _distribution(encoded.items or [], field)
        if line:
            body.append((line, None))
    previews = [(n, p) for n, p in first_previews(encoded, raw_sha256=raw_sha256)
                if preview_check(encoded.text, p, raw_sha256=raw_sha256)]
    if previews:
        body.append(("First items (exact substrings of the stored text, character offsets):", None))
    body += [(f"- line {n}, chars {p.start}-{p.end}: \"{p.text}\"", p) for n, p in previews]
    budget = SUMMARY_MAX_CHARS - sum(len(x) + 1 for x in head + tail)
    fitted: list[str] = []
    shown: list[Preview] = []
    for line, preview in body:
        if len(line) + 1 > budget:
            break
        fitted.append(line)
        budget -= len(line) + 1
        if preview is not None:
            shown.append(preview)
    return Summary(text="\n".join(head + fitted + tail), previews=tuple(shown))
