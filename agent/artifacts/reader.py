"""Read stored content in bounded pieces: line by line, block by block, or backwards from the end.

Memory stays constant whatever the file size: a line longer than PIECE_BYTES arrives in
several pieces, search reads blocks of about BLOCK_TEXT_BYTES, and the tail reader never
holds more than TAIL_MAX_BYTES.
"""
from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from .preview import Preview, preview_make

PIECE_BYTES = 256 * 1024
BLOCK_BYTES = 64 * 1024
TAIL_MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Piece:
    line: int  # 1-based line number
    offset: int  # byte offset of text[0] in the content
    text: str  # decoded text without the newline
    first: bool  # starts its line
    last: bool  # ends its line


def pieces(fh: IO[bytes]) -> Iterator[Piece]:
    """Yield the content's lines in order, each as one piece or, when very long, several."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    line, text_offset, read_to, first = 1, 0, 0, True
    while True:
        raw = fh.readline(PIECE_BYTES)
        if not raw:
            break
        read_to += len(raw)
        ends = raw.endswith(b"\n")
        # Short of the limit without a newline: the content ends here, and so does its last line.
        last = ends or len(raw) < PIECE_BYTES
        text = decoder.decode(raw[:-1] if ends else raw, final=last)
        yield Piece(line=line, offset=text_offset, text=text, first=first, last=last)
        if last:
            decoder.reset()
            line, text_offset, first = line + 1, read_to, True
        else:
            # Bytes of a character cut at the piece's end wait in the decoder for the next piece.
            text_offset, first = read_to - len(decoder.getstate()[0]), False
    if not first:  # the last line has no newline: close it
        yield Piece(line=line, offset=text_offset, text=decoder.decode(b"", final=True), first=False, last=True)


def byte_len(text: str) -> int:
    return len(text.encode("utf-8"))


def char_start(data: bytes) -> int:
    """Return the index of the first byte in data that starts a UTF-8 character."""
    index = 0
    while index < len(data) and index < 4 and data[index] & 0xC0 == 0x80:
        index += 1
    return index


def char_end(data: bytes) -> int:
    """Return the length of data without a UTF-8 character cut off at its end."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 == 0x80:
            continue
        need = 1 if byte < 0x80 else 2 if byte >> 5 == 0b110 else 3 if byte >> 4 == 0b1110 else 4
        return len(data) if need <= back else len(data) - back
    return len(data)


def read_window(fh: IO[bytes], start: int, end: int) -> tuple[int, str]:
    """Return (byte offset, text) of the whole characters within bytes [start, end)."""
    fh.seek(start)
    data = fh.read(max(0, end - start))
    skip = char_start(data)
    data = data[skip:]
    return start + skip, data[:char_end(data)].decode("utf-8", errors="replace")


def newlines_before(fh: IO[bytes], offset: int) -> int:
    """Count the newlines in bytes [0, offset), reading a block at a time."""
    fh.seek(0)
    count, left = 0, offset
    while left > 0:
        block = fh.read(min(BLOCK_BYTES, left))
        if not block:
            break
        count += block.count(b"\n")
        left -= len(block)
    return count


@dataclass(frozen=True)
class TailLine:
    offset: int
    text: str
    cut: bool  # the line starts before what was read


def tail_lines(fh: IO[bytes], size: int, count: int) -> list[TailLine]:
    """Return the last `count` lines, reading backwards in blocks and never more than TAIL_MAX_BYTES."""
    if size == 0 or count < 1:
        return []
    end = size
    fh.seek(size - 1)
    if fh.read(1) == b"\n":
        end -= 1  # the final newline closes the last line; it does not start another
    pos, buf = end, b""
    while pos > 0 and buf.count(b"\n") < count and end - pos < TAIL_MAX_BYTES:
        step = min(BLOCK_BYTES, pos, TAIL_MAX_BYTES - (end - pos))
        pos -= step
        fh.seek(pos)
        buf = fh.read(step) + buf
    starts_mid_line = False
    if pos > 0:
        fh.seek(pos - 1)
        starts_mid_line = fh.read(1) != b"\n"
    lines, at = [], pos
    for index, part in enumerate(buf.split(b"\n")):
        cut = index == 0 and starts_mid_line
        skip = char_start(part) if cut else 0
        lines.append(TailLine(offset=at + skip, text=part[skip:].decode("utf-8", errors="replace"), cut=cut))
        at += len(part) + 1
    return lines[-count:]


BLOCK_TEXT_BYTES = 256 * 1024


@dataclass(frozen=True)
class Block:
    line: int  # line number of text[0]
    offset: int  # byte offset of text[0]
    text: str  # whole lines with their newlines, or (continues/open) a piece of one very long line
    continues: bool  # text[0] is in the middle of a line begun in the previous block


def blocks(fh: IO[bytes]) -> Iterator[Block]:
    """Yield the content in blocks of about BLOCK_TEXT_BYTES, cut after a newline whenever there is one."""
    pending, line, offset, continues = b"", 1, 0, False
    while True:
        chunk = fh.read(BLOCK_TEXT_BYTES)
        data = pending + chunk
        if not chunk:
            if data:
                yield Block(line, offset, data.decode("utf-8", errors="replace"), continues)
            return
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            cut = char_end(data) if len(data) >= BLOCK_TEXT_BYTES else 0  # a piece of a very long line
            if cut == 0:
                pending = data
                continue
        text = data[:cut].decode("utf-8", errors="replace")
        yield Block(line, offset, text, continues)
        newlines = text.count("\n")
        line, offset, continues, pending = line + newlines, offset + cut, not text.endswith("\n"), data[cut:]


@dataclass(frozen=True)
class Hit:
    line: int
    offset: int  # byte offset of the match
    snippet: Preview  # cut from the hit's line (start/end are offsets into that line's text)
    snippet_offset: int  # byte offset of the snippet


def find_literal(fh: IO[bytes], pattern: str, *, case_sensitive: bool = False, radius: int = 60) -> Iterator[Hit]:
    """Yield every non-overlapping occurrence of a one-line literal, in order, reading a block at a time."""
    finder = re.compile(re.escape(pattern), 0 if case_sensitive else re.IGNORECASE)
    overlap = len(pattern) - 1
    carry, resume = "", 0  # the end of the previous piece of a long line, and where scanning goes on in it
    for block in blocks(fh):
        if not block.continues:
            carry, resume = "", 0
        window = carry + block.text  # a carry holds no newline: it is the end of an unfinished line
        window_offset = block.offset - byte_len(carry)
        pos, counted_to, line, byte_at = resume, 0, block.line, window_offset
        while (match := finder.search(window, pos)) is not None:
            line += window.count("\n", counted_to, match.start())
            byte_at += byte_len(window[counted_to:match.start()])
            counted_to = match.start()
            line_start = window.rfind("\n", 0, match.start()) + 1
            line_end = window.find("\n", match.end())
            line_text = window[line_start:len(window) if line_end < 0 else line_end]
            start = max(0, match.start() - line_start - radius)
            end = min(len(line_text), match.end() - line_start + radius)
            yield Hit(line=line, offset=byte_at, snippet=preview_make(line_text, start, end),
                      snippet_offset=byte_at - byte_len(line_text[start:match.start() - line_start]))
            pos = match.end()
        if overlap and not block.text.endswith("\n"):
            carry = window[-overlap:]
            resume = max(0, pos - (len(window) - len(carry)))
        else:
            carry, resume = "", 0
