"""Previews are cut from the raw text, never written (seed 000: a rewritten preview changes identity).

A Preview is ``raw[start:end]`` (character offsets into the raw text) together with the sha256
of that raw text, so anyone holding the source can check it byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass

from .refs import sha256_hex


class PreviewMismatch(Exception):
    """A preview is not the exact substring of its source it claims to be."""

    code = "preview_mismatch"


@dataclass(frozen=True)
class Preview:
    text: str
    start: int
    end: int
    source_sha256: str


def preview_check(raw: str, preview: Preview, *, raw_sha256: str | None = None) -> bool:
    """Return True when the preview is exactly raw[start:end] (as UTF-8 bytes) of this very source."""
    if not 0 <= preview.start <= preview.end <= len(raw):
        return False
    if (raw_sha256 or sha256_hex(raw)) != preview.source_sha256:
        return False
    return raw[preview.start:preview.end].encode("utf-8") == preview.text.encode("utf-8")


def preview_make(raw: str, start: int, end: int, *, raw_sha256: str | None = None) -> Preview:
    """Cut raw[start:end] as a preview and verify it before handing it out."""
    if not 0 <= start <= end <= len(raw):
        raise ValueError(f"preview bounds {start}:{end} are outside a text of {len(raw)} characters")
    digest = raw_sha256 or sha256_hex(raw)
    preview = Preview(text=raw[start:end], start=start, end=end, source_sha256=digest)
    if not preview_check(raw, preview, raw_sha256=digest):
        raise PreviewMismatch(f"preview {start}:{end} does not match its source")
    return preview
