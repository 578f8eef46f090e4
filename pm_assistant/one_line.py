"""One-line texts as they are stored and shown: titles, names, labels, conversation titles.

Bidi overrides and isolates (U+202A-202E, U+2066-2069) can make a title read backwards or hide
part of it ("invoice\u202egnp.exe"), and zero-width characters (U+200B-200D, U+2060, U+FEFF) can
make two titles that look the same differ, or split a word a rule looks for. None of them belongs
in a one-line text, so they are dropped before it is stored.
"""
from __future__ import annotations

import re

INVISIBLE_CONTROLS = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def one_line(text: str) -> str:
    """Return the text without invisible direction and zero-width controls, trimmed."""
    return INVISIBLE_CONTROLS.sub("", text).strip()
