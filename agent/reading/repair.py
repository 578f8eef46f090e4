"""Misspelt words put right against the lexicon, for a message the grammar found no change in.

A word of the message that is no word of the lexicon is replaced by the lexicon word one edit away
(a letter left out, added, changed, or two swapped: "mrak" → "mark", "taks" → "task", "delte" →
"delete"), when exactly one is: of several, the one with the same letters swapped, else the one with
the same first letter and a letter left out ("blockd" → "blocked"), else the one with the same first
letter. Chinese typed through a pinyin keyboard slips to a word of the same sound: a run of two to
four characters that is no phrase of the lexicon and no word of pypinyin's dictionary is replaced by
the one phrase that sounds the same, tones aside ("完城" → "完成", "租塞" → "阻塞", "负则人" → "负责人";
pypinyin gives each character's readings). A change read through a corrected word is never read whole:
the reader offers it on a card ("Did you mean …?").
"""
from __future__ import annotations

from functools import cache, lru_cache
from itertools import product
from math import prod

from pypinyin import Style, pinyin
from pypinyin.constants import PHRASES_DICT

from pm_assistant.one_line import one_line

from .lexicon import lexicon
from .tokens import tokenize

# Shorter words are too often another word one letter away to be corrected.
_SHORTEST = 3


def _one_edit(a: str, b: str) -> bool:
    """Whether b is a one letter away from a: one left out, added, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or len(diff) == 2 and diff[1] == diff[0] + 1 \
            and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


@cache
def _vocabulary() -> dict[int, frozenset[str]]:
    """Every English word of the lexicon's phrases, and the word the task references start with, by length."""
    words = {w for w in lexicon().known if w.isascii() and w.isalpha()} | {"task"}
    return {n: frozenset(w for w in words if len(w) == n) for n in {len(w) for w in words}}


# Bounded: the words come from users, any number of them.
@lru_cache(maxsize=4096)
def corrected(word: str) -> str | None:
    """The lexicon word a misspelt word stands for, when exactly one is one edit away."""
    by_length = _vocabulary()
    if word in by_length.get(len(word), ()) or len(word) < _SHORTEST:
        return None
    near = [w for n in (len(word) - 1, len(word), len(word) + 1) if n >= 4 for w in by_length.get(n, ())
            if _one_edit(word, w)]
    # Two letters swapped first, then a word with the same first letter (a slip rarely hits the first), of
    # those first one with a letter left out, the commonest slip ("blockd": "blocked", not "block").
    same_first = [w for w in near if w[0] == word[0]]
    for pick in ([w for w in near if sorted(w) == sorted(word)], [w for w in same_first if len(w) > len(word)],
                 same_first, near):
        if len(pick) == 1:
            return pick[0]
    return None


# A homophone is looked for in runs of this many characters (the longest first); one character alone has too
# many to say which was meant.
_HAN_RUNS = (4, 3, 2)
# A run whose characters have more readings between them than this is not looked up.
_MOST_SOUNDS = 16


@lru_cache(maxsize=8192)
def _readings(char: str) -> tuple[str, ...]:
    """Every reading of a Chinese character, tones aside ("重": "zhong", "chong")."""
    return tuple(dict.fromkeys(pinyin(char, style=Style.NORMAL, heteronym=True)[0]))


def _sounds(chars: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The ways a run of characters may be read aloud (none when there are too many)."""
    each = [_readings(c) for c in chars]
    return list(product(*each)) if prod(len(readings) for readings in each) <= _MOST_SOUNDS else []


@cache
def _chinese_phrases() -> dict[str, tuple[tuple[str, ...], ...]]:
    """The lexicon's Chinese phrases, by their first character."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in lexicon().phrases():
        if all(token.kind == "han" for token in tokenize("".join(phrase))):
            by_first.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(phrases) for first, phrases in by_first.items()}


@cache
def _homophones() -> dict[tuple[str, ...], frozenset[tuple[str, ...]]]:
    """The lexicon's Chinese phrases of two to four characters, by each way they may be read aloud."""
    by_sound: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for phrases in _chinese_phrases().values():
        for phrase in phrases:
            if len(phrase) in _HAN_RUNS:
                for sound in _sounds(phrase):
                    by_sound.setdefault(sound, set()).add(phrase)
    return {sound: frozenset(phrases) for sound, phrases in by_sound.items()}


def _phrase_at(texts: tuple[str, ...], i: int) -> bool:
    """Whether a Chinese phrase of the lexicon starts at i."""
    return any(texts[i:i + len(phrase)] == phrase for phrase in _chinese_phrases().get(texts[i], ()))


def _sounds_like(chars: tuple[str, ...]) -> tuple[str, ...] | None:
    """The one lexicon phrase a run of characters that is none sounds like; none for a word of its own ("益处"
    is no slip for "移除", "教给" none for "交给": pypinyin's dictionary of words holds them)."""
    if "".join(chars) in PHRASES_DICT:
        return None
    found = {phrase for sound in _sounds(chars) for phrase in _homophones().get(sound, ())}
    return next(iter(found)) if len(found) == 1 else None


def repaired(message: str, *, names: bool = False) -> str | None:
    """The message with its misspelt words put right; None when no word was. With ``names``, a capitalised
    word is taken for a name and kept ("in Billing Migration" is no "killing")."""
    text = one_line(message)
    tokens = tokenize(text)
    texts = tuple(t.text for t in tokens)
    parts, at, i = [], 0, 0
    while i < len(tokens):
        token = tokens[i]
        kept = names and text[token.start:token.start + 1].isupper()
        better = corrected(token.text) if token.kind == "word" and not kept else None
        end = i + 1
        if token.kind == "han" and not _phrase_at(texts, i):
            for n in _HAN_RUNS:
                run = tokens[i:i + n]
                heard = _sounds_like(texts[i:i + n]) if len(run) == n and all(
                    t.kind == "han" for t in run) else None
                if heard is not None:
                    better, end = "".join(heard), i + n
                    break
        if better is not None:
            parts += [text[at:token.start], better]
            at = tokens[end - 1].end
        i = end
    return "".join(parts) + text[at:] if parts else None
