"""The language an answer is written in: the user's own, English unless the message is written in Chinese.

The offline answers are templates in English and Chinese; a quick button (no words typed) is answered in
English, the language of the page.
"""
from __future__ import annotations

import re
from string import Formatter
from typing import Literal

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")

_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
# Text between quotes is the user's data (a title, a pasted line), not the language they write in. Each
# opening quote with its own closing one, so "Don't panic" keeps its apostrophe; a straight single quote
# counts only outside a word (not the one in "don't"). The offline rules read titles with the same pattern.
QUOTED = re.compile(r"\"([^\"]{1,300})\"|“([^”]{1,300})”|‘([^’]{1,300})’|「([^」]{1,300})」|『([^』]{1,300})』"
                    r"|(?<![A-Za-z])'([^']{1,300})'(?![A-Za-z])")
# A Latin word weighs as much as two Han characters (a Chinese word is one to three of them).
_HAN_PER_WORD = 2


def language_of(message: str | None) -> Language:
    """Chinese when Han characters carry the message, else English.

    Quoted text does not count (“写文档” is a title in an English request), and Latin text counts by
    words, so a project name or a task key among Chinese words ("Website Redesign 有哪些逾期任务？") leaves
    the message Chinese while "Create task 写文档" stays English: Chinese when there are at least two Han
    characters for each Latin word.
    """
    text = message or ""
    unquoted = QUOTED.sub(" ", text)
    if _HAN.search(unquoted) or _LATIN_WORD.search(unquoted):
        text = unquoted  # a message that is nothing but a quote is read whole
    han = len(_HAN.findall(text))
    return "zh" if han and han >= _HAN_PER_WORD * len(_LATIN_WORD.findall(text)) else "en"


Words = dict[str, str]


def in_each_language(**texts: Words) -> dict[Language, Words]:
    """One place's words in every language, side by side: each language names the same keys, and each text
    the same {fields} as its English one, so a caller filling a text never meets a field it did not pass."""
    if set(texts) != set(LANGUAGES):
        raise ValueError(f"words for {sorted(texts)}, expected {list(LANGUAGES)}")
    english = texts["en"]
    for language, words in texts.items():
        if set(words) != set(english):
            raise ValueError(f"{language} words differ in keys: {sorted(set(words) ^ set(english))}")
        for key, text in words.items():
            if _fields(text) != _fields(english[key]):
                raise ValueError(f"{language} words of {key!r} fill {sorted(_fields(text))}, "
                                 f"English fills {sorted(_fields(english[key]))}")
    return {language: texts[language] for language in LANGUAGES}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}
