"""The language an answer is written in: the user's own, English unless the message is written in Chinese.

The offline answers are templates in English and Chinese; a quick button (no words typed) is answered in
English, the language of the page.
"""
from __future__ import annotations

import re
from typing import Literal

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")

_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def language_of(message: str | None) -> Language:
    """Chinese when Han characters carry the message (a project name or a task key in Latin letters may
    stand among them: each Han character counts for two letters), else English."""
    text = message or ""
    han = len(_HAN.findall(text))
    return "zh" if han and han * 2 >= len(_LATIN.findall(text)) else "en"
