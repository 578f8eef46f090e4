"""Previews are byte-exact substrings of their source; a rewritten one is caught."""
from __future__ import annotations

import unicodedata
from dataclasses import replace

import pytest

from agent.artifacts.preview import Preview, preview_check, preview_make
from agent.artifacts.refs import sha256_hex

RAW = '{"id":7,"key":"WEB-7","title":"Überprüfung der Login-Seite"}\n{"id":8,"title":"数据 pipeline"}\n'


def test_a_preview_is_the_slice_of_its_source() -> None:
    start = RAW.index("Überprüfung")
    preview = preview_make(RAW, start, start + 27)

    assert preview == Preview(text="Überprüfung der Login-Seite", start=start, end=start + 27,
                              source_sha256=sha256_hex(RAW))
    assert preview_check(RAW, preview)


def test_a_rewritten_preview_is_caught() -> None:
    start = RAW.index("Überprüfung")
    preview = preview_make(RAW, start, start + 27)

    # What a model "tidying up" a preview does: change case, translate a prefix, normalise Unicode.
    assert not preview_check(RAW, replace(preview, text="überprüfung der Login-Seite"))
    assert not preview_check(RAW, replace(preview, text="Review der Login-Seite"))
    nfd = unicodedata.normalize("NFD", preview.text)
    assert nfd != preview.text and not preview_check(RAW, replace(preview, text=nfd))


def test_a_preview_of_another_source_or_place_is_caught() -> None:
    start = RAW.index("WEB-7")
    preview = preview_make(RAW, start, start + 5)
    other = RAW.replace("数据", "data")

    assert not preview_check(other, preview)  # same slice, different source
    assert not preview_check(RAW, replace(preview, start=start + 1, end=start + 6))
    assert not preview_check(RAW, replace(preview, end=len(RAW) + 5))


def test_preview_bounds_are_checked() -> None:
    with pytest.raises(ValueError, match="outside"):
        preview_make(RAW, 10, 5)
    with pytest.raises(ValueError, match="outside"):
        preview_make(RAW, 0, len(RAW) + 1)
    assert preview_make(RAW, 0, 0).text == ""
