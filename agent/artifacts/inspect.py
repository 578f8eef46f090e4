"""The inspection tools the model may call on an artifact: outline, search, context, head, tail.

Every tool checks permission first (another user, or an owner no longer in a scoped project,
gets the same NotFound as an unknown ref), streams the stored file instead of loading it, and
answers a dict of at most ANSWER_MAX_CHARS characters with:

- ``partial``: True when the answer leaves out something the request covered (more hits than
  shown, a line cut to LINE_MAX_CHARS, lines dropped to stay within the answer size, or a
  request larger than a tool's maximum). It says nothing about the artifact's own flags.
- ``expired``: True for an expired or archived artifact, with a ``message`` saying what to do.

Sizes are measured like the inline threshold: characters of the canonical JSON (refs.canonical_json).

Positions: ``line`` is 1-based; ``offset`` is a byte offset into the stored UTF-8 content, so
``artifact_context(offset=...)`` of any hit goes straight to it. Search is a literal substring
search (case-insensitive unless asked), never a regular expression: a pattern written by a model
could make a regex backtrack for minutes over ten megabytes, and Python's ``re`` has no timeout.
"""
from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from agent.models import Artifact
from pm_assistant.errors import InvalidInput
from tasks.revision import tasks_live_search

from .encode import NDJSON
from .index import index_find, index_state
from .reader import byte_len, char_end, find_literal, newlines_before, pieces, read_window, tail_lines
from .refs import canonical_json
from .store import artifact_get_for_user, artifact_is_expired, artifact_open

AnyUser = AbstractBaseUser | AnonymousUser
# At most the default inline limit, so an inspection answer never has to be externalized itself.
ANSWER_MAX_CHARS = 8000
LINE_MAX_CHARS = 400
HEAD_MAX_LINES = 50
SEARCH_MAX_HITS = 50
SNIPPET_RADIUS = 60
PATTERN_MAX_CHARS = 200
CONTEXT_MAX_LINES = 10
CONTEXT_MAX_BYTES = 2000
OUTLINE_MAX_FIELDS = 40


class _Budget:
    def __init__(self, chars: int = ANSWER_MAX_CHARS - 800) -> None:
        self.left = chars  # the fixed keys of an answer fit in the 800 held back

    def take(self, entry: Any) -> bool:
        cost = len(canonical_json(entry)) + 1
        if cost > self.left:
            return False
        self.left -= cost
        return True


def _answer(artifact: Artifact, tool: str, **fields: Any) -> dict[str, Any]:
    return {"ref": artifact.ref, "tool": tool, "expired": False, "partial": False, **fields}


def _expired(artifact: Artifact, tool: str, why: str = "") -> dict[str, Any]:
    why = why or f"expired at {artifact.expires_at.isoformat()}"
    message = (f"Artifact {artifact.ref} {why}; its content is no longer available to the assistant. "
               f"Run {artifact.source_tool} again for current data.")
    return {"ref": artifact.ref, "tool": tool, "expired": True, "partial": False, "message": message}


def _readable(user: AnyUser, ref: str) -> Artifact:
    return artifact_get_for_user(user=user, ref=ref)


def _count(value: Any, field: str, *, default: int, maximum: int, minimum: int = 1) -> tuple[int, bool]:
    """Validate a count argument; a value above the maximum is lowered to it (the answer is then partial)."""
    if value is None:
        value = default
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInput(f"{field}: must be a whole number of at least {minimum}.", field=field)
    return min(value, maximum), value > maximum


def _line_entry(line: int, offset: int, text: str, cut: bool) -> dict[str, Any]:
    return {"line": line, "offset": offset, "text": text[:LINE_MAX_CHARS], "cut": cut or len(text) > LINE_MAX_CHARS}


def _lines_between(artifact: Artifact, first: int, last: int) -> tuple[list[dict[str, Any]], bool]:
    """Stream lines first..last (capped), stopping at the last one or when the answer is full."""
    out: list[dict[str, Any]] = []
    budget = _Budget()
    with artifact_open(artifact) as fh:
        for piece in pieces(fh):
            if piece.line > last:
                break
            if not piece.first or piece.line < first:
                continue
            entry = _line_entry(piece.line, piece.offset, piece.text, cut=not piece.last)
            if not budget.take(entry):
                return out, True
            out.append(entry)
    return out, any(e["cut"] for e in out)


def artifact_head(*, user: AnyUser, ref: str, lines: int = 20) -> dict[str, Any]:
    """Return the first `lines` lines (at most HEAD_MAX_LINES)."""
    artifact = _readable(user, ref)
    if artifact_is_expired(artifact):
        return _expired(artifact, "head")
    count, lowered = _count(lines, "lines", default=20, maximum=HEAD_MAX_LINES)
    try:
        shown, partial = _lines_between(artifact, 1, count)
    except FileNotFoundError:
        return _expired(artifact, "head", "is no longer stored")
    return _answer(artifact, "head", partial=partial or lowered, total_lines=artifact.line_count, lines=shown)


def artifact_tail(*, user: AnyUser, ref: str, lines: int = 20) -> dict[str, Any]:
    """Return the last `lines` lines, read backwards from the end in blocks."""
    artifact = _readable(user, ref)
    if artifact_is_expired(artifact):
        return _expired(artifact, "tail")
    count, lowered = _count(lines, "lines", default=20, maximum=HEAD_MAX_LINES)
    try:
        with artifact_open(artifact) as fh:
            found = tail_lines(fh, artifact.size_bytes, count)
    except FileNotFoundError:
        return _expired(artifact, "tail", "is no longer stored")
    first_number = artifact.line_count - len(found) + 1
    entries = [_line_entry(first_number + i, t.offset, t.text, t.cut) for i, t in enumerate(found)]
    budget, kept = _Budget(), []
    for entry in reversed(entries):  # the end matters most in a tail: drop from the front
        if not budget.take(entry):
            break
        kept.append(entry)
    kept.reverse()
    partial = lowered or len(kept) < len(entries) or any(e["cut"] for e in kept)
    return _answer(artifact, "tail", partial=partial, total_lines=artifact.line_count, lines=kept)


def artifact_search(*, user: AnyUser, ref: str, pattern: str, max_hits: int = 20,
                    case_sensitive: bool = False) -> dict[str, Any]:
    """Find a text; partial when there are more hits than shown.

    Task rows are searched through their index (``index``: "fresh"). When the projects' tasks changed
    since the read, or the index is missing, the answer is ``stale`` and ``live``: the current tasks of
    the artifact's projects, read by a bounded query. Other content is scanned line by line.
    """
    artifact = _readable(user, ref)
    if artifact_is_expired(artifact):
        return _expired(artifact, "search")
    if not isinstance(pattern, str) or not pattern.strip() or len(pattern) > PATTERN_MAX_CHARS or "\n" in pattern:
        raise InvalidInput(f"pattern: must be 1 to {PATTERN_MAX_CHARS} characters on one line.", field="pattern")
    limit, lowered = _count(max_hits, "max_hits", default=20, maximum=SEARCH_MAX_HITS)
    state = index_state(artifact)
    if state in ("stale", "missing"):
        rows, more = tasks_live_search(project_ids=artifact.project_ids, text=pattern, limit=limit)
        return _answer(artifact, "search", partial=more or lowered, pattern=pattern, index=state, stale=True,
                       live=True, hit_count=len(rows), rows=rows, total_lines=artifact.line_count)
    try:
        if state == "fresh":
            found = _indexed_hits(artifact, pattern, limit)
        else:
            found = _scanned_hits(artifact, pattern, limit, case_sensitive=case_sensitive)
    except FileNotFoundError:
        return _expired(artifact, "search", "is no longer stored")
    hits, more, stopped_at = found
    return _answer(artifact, "search", partial=more or lowered, pattern=pattern, case_sensitive=case_sensitive,
                   index=state, stale=False, live=False, hit_count=len(hits), hits=hits,
                   scanned_to_line=stopped_at or artifact.line_count, total_lines=artifact.line_count)


_Hits = tuple[list[dict[str, Any]], bool, int | None]


def _scanned_hits(artifact: Artifact, pattern: str, limit: int, *, case_sensitive: bool) -> _Hits:
    hits: list[dict[str, Any]] = []
    budget, more, stopped_at = _Budget(ANSWER_MAX_CHARS - 800 - len(canonical_json(pattern))), False, None
    with artifact_open(artifact) as fh:
        for found in find_literal(fh, pattern, case_sensitive=case_sensitive, radius=SNIPPET_RADIUS):
            hit = {"line": found.line, "offset": found.offset, "snippet": found.snippet.text,
                   "snippet_offset": found.snippet_offset}
            if len(hits) == limit or not budget.take(hit):
                more, stopped_at = True, found.line
                break
            hits.append(hit)
    return hits, more, stopped_at


def _indexed_hits(artifact: Artifact, pattern: str, limit: int) -> _Hits:
    """Hits from the index: one query, then a seek and a bounded read per hit line."""
    entries, more = index_find(artifact, pattern, limit=limit)
    hits: list[dict[str, Any]] = []
    budget = _Budget(ANSWER_MAX_CHARS - 800 - len(canonical_json(pattern)))
    with artifact_open(artifact) as fh:
        for entry in entries:
            fh.seek(entry.offset)
            data = fh.read(min(entry.length, 4 * LINE_MAX_CHARS))
            line = data[:char_end(data)].decode("utf-8", errors="replace")
            at = line.casefold().find(pattern.strip().casefold())
            start = max(0, at - SNIPPET_RADIUS) if at >= 0 else 0
            end = min(len(line), (at + len(pattern.strip()) + SNIPPET_RADIUS) if at >= 0 else 2 * SNIPPET_RADIUS)
            hit = {"line": entry.line, "offset": entry.offset + byte_len(line[:max(at, 0)]),
                   "snippet": line[start:end], "snippet_offset": entry.offset + byte_len(line[:start])}
            if not budget.take(hit):
                return hits, True, entry.line
            hits.append(hit)
    return hits, more, entries[-1].line if more and entries else None


def artifact_context(*, user: AnyUser, ref: str, line: int | None = None, offset: int | None = None,
                     radius: int | None = None) -> dict[str, Any]:
    """Return the text around a line (radius in lines) or around a byte offset (radius in bytes)."""
    artifact = _readable(user, ref)
    if artifact_is_expired(artifact):
        return _expired(artifact, "context")
    if (line is None) == (offset is None):
        raise InvalidInput("context: give exactly one of line or offset.", field="line")
    try:
        if line is not None:
            return _context_lines(artifact, line, radius)
        assert offset is not None
        return _context_bytes(artifact, offset, radius)
    except FileNotFoundError:
        return _expired(artifact, "context", "is no longer stored")


def _context_lines(artifact: Artifact, line: int, radius: int | None) -> dict[str, Any]:
    if isinstance(line, bool) or not isinstance(line, int) or not 1 <= line <= artifact.line_count:
        raise InvalidInput(f"line: must be between 1 and {artifact.line_count}.", field="line")
    span, lowered = _count(radius, "radius", default=2, maximum=CONTEXT_MAX_LINES, minimum=0)
    shown, partial = _lines_between(artifact, max(1, line - span), line + span)
    return _answer(artifact, "context", partial=partial or lowered, target_line=line, radius=span,
                   total_lines=artifact.line_count, lines=shown)


def _context_bytes(artifact: Artifact, offset: int, radius: int | None) -> dict[str, Any]:
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset < max(1, artifact.size_bytes):
        raise InvalidInput(f"offset: must be between 0 and {max(0, artifact.size_bytes - 1)}.", field="offset")
    span, lowered = _count(radius, "radius", default=300, maximum=CONTEXT_MAX_BYTES, minimum=0)
    limit, shrunk = ANSWER_MAX_CHARS - 800, False
    with artifact_open(artifact) as fh:
        while True:
            start, text = read_window(fh, max(0, offset - span), min(artifact.size_bytes, offset + span + 1))
            cost = len(canonical_json(text))
            if cost <= limit:
                break
            # Escaped control characters can make a window longer than its bytes: narrow it.
            span, shrunk = span * limit // cost // 2, True
        line = newlines_before(fh, start) + 1
    return _answer(artifact, "context", partial=lowered or shrunk, target_offset=offset, radius=span, line=line,
                   offset=start, end_offset=start + byte_len(text), text=text)


def _first_keys(artifact: Artifact) -> list[str] | None:
    """Return the keys of the first item of an NDJSON artifact (None for other content)."""
    if artifact.content_type != NDJSON:
        return None
    with artifact_open(artifact) as fh:
        first = next(pieces(fh), None)
    if first is None or not first.last:
        return None
    row = json.loads(first.text)
    return [str(k) for k in row] if isinstance(row, dict) else None


def _fill(budget: _Budget, pairs: list[tuple[str, Any]], limit: int) -> tuple[dict[str, Any], bool]:
    """Keep leading (key, value) pairs while they fit; report whether any was left out."""
    kept: dict[str, Any] = {}
    for key, value in pairs[:limit]:
        if not budget.take([key, value]):
            break
        kept[key] = value
    return kept, len(kept) < len(pairs)


def artifact_outline(*, user: AnyUser, ref: str) -> dict[str, Any]:
    """Describe the artifact: source, size, counts, flags, fields with types and the first item's keys."""
    artifact = _readable(user, ref)
    if artifact_is_expired(artifact):
        return _expired(artifact, "outline")
    try:
        first_keys = _first_keys(artifact)
    except FileNotFoundError:
        return _expired(artifact, "outline", "is no longer stored")
    budget = _Budget()
    args_fit = len(canonical_json(artifact.source_args)) <= 1000 and budget.take(artifact.source_args)
    fields = artifact.schema.get("fields") or {}
    shown_fields, fields_cut = _fill(budget, list(fields.items()), OUTLINE_MAX_FIELDS)
    meta, meta_cut = _fill(budget, sorted(artifact.meta.items()), OUTLINE_MAX_FIELDS)
    keys, keys_cut = _fill(budget, [(k, None) for k in first_keys or []], OUTLINE_MAX_FIELDS)
    partial = (not args_fit or fields_cut or meta_cut or keys_cut or bool(artifact.schema.get("fields_capped")))
    return _answer(
        artifact, "outline", partial=partial,
        source_tool=artifact.source_tool, source_args=artifact.source_args if args_fit else {"omitted": "too long"},
        content_type=artifact.content_type, size_bytes=artifact.size_bytes, item_count=artifact.item_count,
        line_count=artifact.line_count, sha256=artifact.sha256, kind=artifact.schema.get("kind"),
        fields=shown_fields, field_count=len(fields), first_keys=list(keys) if first_keys is not None else None,
        meta=meta, flags={"is_summary": artifact.is_summary, "truncated": artifact.truncated,
                          "incomplete": artifact.incomplete},
        created_at=artifact.created_at.isoformat(), expires_at=artifact.expires_at.isoformat(),
    )
