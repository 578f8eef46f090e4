"""Number fidelity: every number and date in a polished text must be one the server verified."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agent.models import Alert

if TYPE_CHECKING:
    from agent.run.trace import TraceRecorder

_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_ISO_WEEK = re.compile(r"\b(\d{4})-W(\d{2})\b")
# Digits not inside a Latin word or code ("P0", "v2"); next to other scripts they are numbers ("完成了12个").
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[0-9]+(?:[.,][0-9]+)*(?![A-Za-z0-9_])")
# Longer than any figure a report states: such a "number" is stray without reading its value.
_NUMBER_MAX_CHARS = 30
# Spelled-out numbers count too, or "three" could hide a changed figure.
_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}
_WORDS.update({w: 10 * n for n, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), start=3)})
_WORD = re.compile(r"\b(" + "|".join(_WORDS) + r")\b", re.IGNORECASE)
# Chinese numerals written as words, where they count something ("十二个任务", "三项", "两天").
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_ZH_NUMBER = re.compile(r"([零〇一二两三四五六七八九十百千]+)(?=[个项条件天周次人%％])")


def _zh_value(numeral: str) -> int:
    """The value of a Chinese numeral below ten thousand ("十二" 12, "一百零五" 105, "两千" 2000)."""
    total, digit = 0, None
    for char in numeral:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        else:
            total += (1 if digit is None else digit) * _ZH_UNITS[char]
            digit = None
    return total + (digit or 0)


@dataclass(frozen=True)
class Allowed:
    """The numbers and dates a text may state: the verified figures and what derives from them."""

    numbers: frozenset[str]
    dates: frozenset[str]

    @classmethod
    def of(cls, numbers: Iterable[int | float | str], dates: Iterable[str]) -> Allowed:
        dates = frozenset(dates)
        day_parts = {str(int(part)) for d in dates for part in d.split("-")}
        return cls(numbers=frozenset({_canonical(str(n)) for n in numbers} | day_parts), dates=dates)


    @classmethod
    def stated_in(cls, lines: Iterable[str]) -> Allowed:
        """The numbers and dates the given figure lines state, and nothing else."""
        text = "\n".join(lines)
        dates = _ISO_DATE.findall(text)
        numbers = _NUMBER.findall(_ISO_WEEK.sub(" ", _ISO_DATE.sub(" ", text)))
        weeks = [part for match in _ISO_WEEK.findall(text) for part in match]
        return cls.of([*numbers, *weeks], dates)


def _canonical(number: str) -> str:
    text = number.replace(",", "")
    if len(text) > _NUMBER_MAX_CHARS:
        return text
    return text.rstrip("0").rstrip(".") if "." in text else str(int(text))


def stray_numbers(text: str, allowed: Allowed) -> list[str]:
    """Return the numbers and dates in the text that are not allowed, in order of appearance."""
    # Digits of every script ("１２", "١٢", "१२") read as the ASCII digits they are.
    text = "".join(str(unicodedata.digit(ch)) if unicodedata.category(ch) == "Nd" else ch
                   for ch in unicodedata.normalize("NFKC", text))
    stray = [d for d in _ISO_DATE.findall(text) if d not in allowed.dates]
    rest = _ISO_DATE.sub(" ", text)
    for year, week in _ISO_WEEK.findall(rest):
        stray += [n for n in (year, str(int(week))) if n not in allowed.numbers]
    rest = _ISO_WEEK.sub(" ", rest)
    stray += [n for n in _NUMBER.findall(rest) if _canonical(n) not in allowed.numbers]
    stray += [w for w in _WORD.findall(rest) if str(_WORDS[w.lower()]) not in allowed.numbers]
    stray += [w for w in _ZH_NUMBER.findall(rest) if str(_zh_value(w)) not in allowed.numbers]
    return stray


def kept_to(text: str, allowed: Allowed, *, recorder: TraceRecorder, what: str, fallback: str) -> str:
    """The model's text when every number and date in it is allowed; else the fallback, and a
    ``number_mismatch`` alert naming what the model wrote (``what`` names the text in the alert)."""
    stray = stray_numbers(text, allowed)
    if stray:
        recorder.alert(Alert.Kind.NUMBER_MISMATCH,
                       f"The {what} states {', '.join(stray[:5])}, which is not a verified figure; "
                       "the template text was used.", key=f"{what}:{','.join(stray[:5])}", numbers=stray[:20])
        return fallback
    return text or fallback
