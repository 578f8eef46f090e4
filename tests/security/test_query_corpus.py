"""A question to see tasks keeps every filter it asks for, or says which it could not use: never one dropped.

tests/security/query_corpus.py decides each question of both splits (each written apart from the
reader: dev, which it was widened for, and sealed, never looked at but for its misreadings) as the
offline provider reads it; bench/intent_corpus.py prints the same figures.
"""
from __future__ import annotations

from collections import Counter

import pytest

from .query_corpus import QUERY_SPLITS, QuerySplit, decide, figures, questions

FILTER_KINDS = {"assignee", "mine", "unassigned", "status", "open", "overdue", "priority", "due", "project", "other"}


@pytest.mark.parametrize("split", QUERY_SPLITS)
def test_each_split_reaches_every_kind_of_filter_in_both_languages(split: QuerySplit) -> None:
    asked = questions(split)
    kinds = Counter(e.split(":")[0] for q in asked for e in q.expect)
    assert len(asked) >= 150 and set(kinds) == FILTER_KINDS, kinds
    assert {q.lang for q in asked} == {"en", "zh", "mixed"}


@pytest.mark.parametrize("split", QUERY_SPLITS)
def test_no_filter_asked_for_is_dropped_or_read_wrong(split: QuerySplit) -> None:
    decided = [(q, decide(q)) for q in questions(split)]
    f = figures(decided)
    bad = [f"{outcome}: {q.text!r} (asked for {', '.join(q.expect)})" for q, outcome in decided
           if outcome in ("dropped", "wrong")]
    assert not bad, f"{f}\n" + "\n".join(bad)
