"""A correction that takes back a value, not a task: the reader asks which is meant, and no card states the first.

"mark task 5 done, no wait, task 6" corrects the task, and the change moves to the task meant (reader.py). "set
it due Friday, sorry I meant Monday", "把这个任务改成P0，不，P1", "assign it to bob, no, carol" correct the value:
a card would state the value taken back, so none is offered.
"""
from __future__ import annotations

from .clauses import RESTATED
from .grammar import change
from .parts import Parser, value


def retakes_value(p: Parser) -> bool:
    """Whether a correction takes back a value, not a task ("due Friday, sorry I meant Monday", "改成P0，不，P1",
    "assign it to bob, no, carol", "Close it. Actually, set it to blocked"): a correction's mark, then a value, a
    name or another change."""
    for k in range(1, p.n):
        for e in p.w(k, "correction_mark", "correction"):
            if p.texts[k:e] == ("是",):
                continue
            j = e
            # Said again, perhaps after the word that leads to a person ("…, no wait, to bob", "…，不对，给bob").
            while j < p.n and (p.tokens[j].kind == "punct" or p.texts[j] in RESTATED
                               or j + 1 in p.w(j, "glue.assignee_to", "glue.zh_give")):
                j += 1
            if j < p.n and p.tokens[j].kind != "ref" and (
                    any(True for _ in value(p, j)) or any(True for _ in change(p, j, "base"))
                    or p.tokens[j].kind == "word" and p.texts[j] not in p.lex.known):
                return True
    return False
