"""A question to see tasks keeps every filter it asks for, or says which it could not use: never one dropped.

tests/security/query_corpus.py decides each question of the sealed set (written apart from the
reader) as the offline provider reads it; bench/intent_corpus.py prints the same figures.
"""
from __future__ import annotations

from collections import Counter

from .query_corpus import decide, figures, questions

FILTER_KINDS = {"assignee", "mine", "unassigned", "status", "open", "overdue", "priority", "due", "project", "other"}


def test_the_sealed_questions_reach_every_kind_of_filter_in_both_languages() -> None:
    sealed = questions()
    kinds = Counter(e.split(":")[0] for q in sealed for e in q.expect)
    assert len(sealed) >= 150 and set(kinds) == FILTER_KINDS, kinds
    assert {q.lang for q in sealed} == {"en", "zh", "mixed"}


def test_no_filter_asked_for_is_dropped_or_read_wrong() -> None:
    decided = [(q, decide(q)) for q in questions()]
    f = figures(decided)
    bad = [f"{outcome}: {q.text!r} (asked for {', '.join(q.expect)})" for q, outcome in decided
           if outcome in ("dropped", "wrong")]
    assert not bad, f"{f}\n" + "\n".join(bad)
