"""A message as tokens: words, Chinese characters, task references, dates, priorities, quotes, punctuation.

English words are whole tokens, lower-cased; Chinese is read one character a token, so a phrase of
either language is a sequence of tokens and the lexicon matches both alike. Task references ("task
5", "#5", "WEB-5" with its project's key in capitals — "covid-19" and "utf-8" are none —, "任务5",
"5号任务", and "900号那个任务" with a number no day of a month can be: "5号" alone, or "5号那个任务",
may be a day), ISO dates, priorities ("P0") and quoted text are one token each.
Anything else (an emoji, a slash, a date that names no day: "2027-02-30", the "~~" that strikes words out)
is a symbol token, which no phrase holds: it is never read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from pm_assistant.one_line import one_line

_SCAN = re.compile(r"""
  (?P<quote>“[^”]*”|「[^」]*」|『[^』]*』|"[^"]*"|‘[^’]*’|(?<![a-z0-9])'[^']+'(?![a-z0-9]))
| (?P<ref>(?:(?<![a-z])task\s*\#?\s*|任务\s*\#?\s*|\#
           |(?<![a-z0-9])(?-i:[A-Z][A-Z0-9]{0,9})-)(?P<id>\d{1,12})(?!\d)
    (?P<poss>['’]s(?![a-z]))?
  | (?<!\d)(?P<zh_id>\d{1,12})\s*号\s*任务
  | (?<![\d.])(?P<zh_big>3[2-9]|[4-9]\d|[1-9]\d{2,11})\s*号\s*(?:那个|这个)\s*任务)
| (?P<date>(?<!\d)\d{4}-\d{2}-\d{2}(?!\d))
| (?P<prio>(?<![a-z0-9])p[0-3](?:s(?![a-z0-9]))?(?![a-z0-9]))
| (?P<word>[a-z]+(?:['’][a-z]+)*)
| (?P<num>\d+)
| (?P<han>[\u3400-\u9fff])
| (?P<strike>~~)
| (?P<punct>[,，、.。!！?？;；:：…—–\-~～])
| (?P<space>\s+)
| (?P<sym>.)
""", re.VERBOSE | re.IGNORECASE)
_PUNCT = {"，": ",", "、": ",", "。": ".", "！": "!", "？": "?", "；": ";", "：": ":", "…": ".", "—": "-", "–": "-",
          "~": "-", "～": "-"}


@dataclass(frozen=True)
class Token:
    kind: str  # word, han, num, ref, date, prio, quote, punct, sym
    text: str  # what phrases match: the lower-cased word, the character, the normalised mark
    start: int  # where it stands in the message
    end: int
    value: str = ""  # a reference's task number, a date, "P0", a quote's inner text
    possessive: bool = False  # "WEB-5's"


def tokenize(message: str) -> tuple[Token, ...]:
    """The message's tokens; offsets index into one_line(message)."""
    text = one_line(message)
    tokens = []
    for m in _SCAN.finditer(text):
        kind = next(k for k in ("quote", "ref", "date", "prio", "word", "num", "han", "strike", "punct", "space",
                                "sym") if m.group(k) is not None)
        if kind == "strike":
            kind = "sym"  # "~~…~~" strikes its words out: never read
        if kind == "space":
            continue
        if kind == "date" and not _is_day(m.group(0)):
            kind = "sym"  # "2027-02-30" names no day: never read
        raw = m.group(0)
        number = m.group("id") or m.group("zh_id") or m.group("zh_big") or ""
        value = {"quote": raw[1:-1].strip(), "ref": number, "date": raw, "prio": raw[:2].upper()}.get(kind, "")
        word = raw.lower().replace("’", "'")
        tokens.append(Token(kind, _PUNCT.get(raw, word) if kind == "punct" else word, m.start(), m.end(), value,
                            bool(m.group("poss"))))
    return tuple(tokens)


def _is_day(iso: str) -> bool:
    try:
        date.fromisoformat(iso)
    except ValueError:
        return False
    return True


def phrase_tokens(phrase: str) -> tuple[str, ...]:
    """A lexicon phrase as the token texts it matches ("could you" → ("could", "you"), "标记为" → 3 characters)."""
    return tuple(token.text for token in tokenize(phrase))
