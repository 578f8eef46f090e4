"""The bounded readers: pieces of long lines, UTF-8 boundaries, and the tail read backwards."""
from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.artifacts import reader
from agent.artifacts.reader import char_end, char_start, find_literal, pieces, read_window, tail_lines
from tests.hypothesis_profiles import examples

TEXT = st.text(alphabet=st.sampled_from(["a", "b", "é", "数", "\n", "😀"]), max_size=200)


def _pieces(data: bytes, size: int) -> list[reader.Piece]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "PIECE_BYTES", size)
        return list(pieces(io.BytesIO(data)))


@settings(max_examples=examples(300), deadline=None)
@given(text=TEXT, size=st.integers(min_value=4, max_value=12))
def test_pieces_rebuild_every_line_at_the_right_offsets(text: str, size: int) -> None:
    data = text.encode("utf-8")
    found = _pieces(data, size)

    for piece in found:
        assert data[piece.offset:piece.offset + len(piece.text.encode())] == piece.text.encode()
    lines: dict[int, str] = {}
    for piece in found:
        lines[piece.line] = lines.get(piece.line, "") + piece.text
    expected = text.split("\n")
    if text.endswith("\n"):
        expected.pop()
    assert [lines[n] for n in sorted(lines)] == (expected if text else [])
    assert all(p.last for p in found if p is found[-1])


@settings(max_examples=examples(300), deadline=None)
@given(text=TEXT, count=st.integers(min_value=1, max_value=6), block=st.integers(min_value=1, max_value=9))
def test_tail_lines_match_the_last_lines(text: str, count: int, block: int) -> None:
    data = text.encode("utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BLOCK_BYTES", block)
        found = tail_lines(io.BytesIO(data), len(data), count)

    expected = text.split("\n")
    if text.endswith("\n"):
        expected.pop()
    assert [t.text for t in found] == (expected[-count:] if text else [])
    for line in found:
        assert data[line.offset:line.offset + len(line.text.encode())] == line.text.encode()
        assert not line.cut


def test_tail_never_reads_more_than_its_cap_and_marks_the_cut_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "TAIL_MAX_BYTES", 10)
    data = ("x" * 30 + "\n" + "é" * 20 + "\n").encode()

    found = tail_lines(io.BytesIO(data), len(data), 3)

    assert len(found) == 1 and found[0].cut
    assert 0 < len(found[0].text.encode()) <= 10 and set(found[0].text) == {"é"}
    assert data[found[0].offset:].startswith(found[0].text.encode())


def test_utf8_boundaries() -> None:
    data = "a数b".encode()  # a, three bytes, b
    assert char_start(data[2:]) == 2
    assert char_end(data[:3]) == 1
    assert char_end(data) == len(data)
    assert read_window(io.BytesIO(data), 2, 5) == (4, "b")


@settings(max_examples=examples(400), deadline=None)
@given(text=TEXT, pattern=st.text(alphabet=st.sampled_from(["a", "B", "é", "数"]), min_size=1, max_size=3),
       block=st.integers(min_value=4, max_value=13), case_sensitive=st.booleans())
def test_find_literal_finds_what_a_whole_line_scan_finds(text: str, pattern: str, block: int,
                                                         case_sensitive: bool) -> None:
    data = text.encode("utf-8")
    flags = 0 if case_sensitive else re.IGNORECASE
    expected, at = [], 0
    for number, line in enumerate(text.split("\n"), 1):
        for match in re.finditer(re.escape(pattern), line, flags):
            expected.append((number, at + len(line[:match.start()].encode())))
        at += len(line.encode()) + 1
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BLOCK_TEXT_BYTES", block)
        found = list(find_literal(io.BytesIO(data), pattern, case_sensitive=case_sensitive, radius=2))

    assert [(h.line, h.offset) for h in found] == expected
    for hit in found:
        assert data[hit.snippet_offset:].startswith(hit.snippet.text.encode())
        assert "\n" not in hit.snippet.text
        assert re.search(re.escape(pattern), hit.snippet.text, flags)


def test_a_last_line_without_newline_is_complete() -> None:
    found = list(pieces(io.BytesIO("first\nlast é".encode())))

    assert [(p.line, p.text, p.first, p.last) for p in found] == [(1, "first", True, True), (2, "last é", True, True)]
