"""One-line texts as they are stored and shown: titles, names, labels, conversation titles.

Bidi overrides and isolates (U+202A-202E, U+2066-2069) can make a title read backwards or hide
part of it ("invoice\u202egnp.exe"), and zero-width characters (U+200B-200D, U+2060, U+FEFF) can
make two titles that look the same differ, or split a word a rule looks for. None of them belongs
in a one-line text, so they are dropped before it is stored.

"Blank" has one rule, here: a text with no character a reader can see is blank, whatever it is made
of (spaces of any kind, format and control characters, lone combining marks, the blank-looking
letters below). ``one_line`` returns "" for it, so every caller's "must not be blank" agrees.
"""
from __future__ import annotations

import re
import unicodedata

INVISIBLE_CONTROLS = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Categories drawn as nothing on their own: controls, format characters (soft hyphen U+00AD, Mongolian
# vowel separator U+180E, tags), separators, and combining marks with no letter to sit on (U+034F).
_UNSEEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})
# Letters and symbols that are drawn empty: Braille blank, the Hangul fillers, the halfwidth filler.
_BLANK_LOOKING = frozenset("\u2800\u115f\u1160\u3164\uffa0")


def visible(char: str) -> bool:
    """Whether a reader sees this character on its own."""
    return not (char.isspace() or char in _BLANK_LOOKING or unicodedata.category(char) in _UNSEEN_CATEGORIES)


def one_line(text: str) -> str:
    """Return the text without invisible direction and zero-width controls, trimmed; "" if it is blank."""
    cleaned = INVISIBLE_CONTROLS.sub("", text).strip()
    return cleaned if any(visible(char) for char in cleaned) else ""
