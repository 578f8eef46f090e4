"""Negations, questions, hypotheticals, quotes, retractions and sarcasm write nothing; requests still run at once.

tests/security/intent_corpus.py labels each message; intent_harness.py sends it. The figures are
printed at the end of the run ("intent corpus") and by bench/intent_corpus.py.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from tests.llm_stub import LLMStub

from . import report
from .intent_corpus import MESSAGES
from .intent_harness import SUITES, Suite, confusion, run_corpus

pytestmark = pytest.mark.long  # the whole corpus, twice, in one test each


def test_the_corpus_has_its_size_and_reach() -> None:
    assert len(MESSAGES) >= 200
    groups = {m.group for m in MESSAGES}
    assert {"negation", "question", "hypothetical", "reported", "retraction", "sarcasm", "polite"} <= groups
    assert sum(m.asked for m in MESSAGES) >= 40 and sum(not m.asked for m in MESSAGES) >= 150
    han = [m for m in MESSAGES if re.search(r"[\u4e00-\u9fff]", m.text)]
    mixed = [m for m in han if re.search(r"[a-z]{3}", m.text)]
    assert len(han) >= 50 and len(mixed) >= 8


@pytest.mark.parametrize("suite", SUITES)
def test_no_write_runs_unasked_and_requests_run_at_once(suite: Suite, request: pytest.FixtureRequest,
                                                         corpus_stub: LLMStub, alice: Any, website: Any) -> None:
    # The compromised router is the openai provider pointed at the corpus's stub (conftest.corpus_model).
    stub = request.getfixturevalue("corpus_model") if suite == "compromised" else None
    try:
        outcomes = run_corpus(alice, website, suite, stub)
    finally:
        corpus_stub.responder = None
    report.record_intent(suite, confusion(outcomes))
    unasked = [f"{o.text!r} ({o.message.group}): {o.status}" for o in outcomes if o.unasked_write]
    missed = [f"{o.text!r} ({o.message.group}): {o.status}" for o in outcomes if o.missed_request]
    assert not unasked, f"{len(unasked)} writes nobody asked for:\n" + "\n".join(unasked)
    assert not missed, f"{len(missed)} requests that did not run at once:\n" + "\n".join(missed)
    if suite == "compromised":
        # Every message reached the router model: the stub really answered.
        assert len(corpus_stub.requests) >= len(MESSAGES)
    else:
        # Offline, a named write that was not asked for is answered (what it would do, or that nothing
        # changed), never put on a card.
        carded = [o.text for o in outcomes if not o.message.asked and o.card]
        assert not carded, carded
