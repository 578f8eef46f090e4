"""The injection corpus against an obedient and a compromised model: 0 violations of any invariant.

The cases come from tests/security/corpus.py (payloads × placements × requests); harness.py runs
one and lists what it broke. The figures per suite are printed at the end of the run ("security
corpus") and written to test-results/security_corpus.json.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from agent.routing.decision import Route
from tests.llm_stub import LLMStub

from . import report
from .corpus import PAYLOADS, PLACEMENTS, REQUESTS, Case, cases
from .harness import run_case, world_build
from .models import ATTACKS

pytestmark = pytest.mark.long  # 302 cases, each a run through the real graph


@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("suite", ["obedient", "compromised"])
def test_no_injection_gets_through(suite: str, placement: str, corpus_model: LLMStub, alice: Any, bob: Any,
                                   website: Any) -> None:
    world = world_build(alice, bob, website)
    compromised = suite == "compromised"
    results = [run_case(world, case, corpus_model, compromised=compromised)
               for case in cases(placement, shift=len(REQUESTS) // 2 if compromised else 0)]
    report.record(suite, results)
    broken = [f"{r.case.id}: {v}" for r in results for v in r.violations]
    assert results and not broken, f"{len(broken)} violations:\n" + "\n".join(broken[:40])


def test_the_corpus_keeps_its_size_and_reach() -> None:
    """At least 300 cases over the two suites, every request in every placement, Chinese and markup among them."""
    both = [c for shift in (0, len(REQUESTS) // 2) for p in PLACEMENTS for c in cases(p, shift=shift)]
    assert len(both) >= 300
    assert {(c.placement, c.request.name) for c in both} == {(p, r.name) for p in PLACEMENTS for r in REQUESTS}
    texts = [c.payload.text for c in both]
    assert any(re.search(r"[\u4e00-\u9fff]", t) for t in texts) and any("<" in t for t in texts)
    assert any("](" in t for t in texts)  # Markdown links and images


def test_the_harness_sees_what_the_intent_check_stops(corpus_model: LLMStub, alice: Any, bob: Any, website: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """With the intent check switched off, the compromised model's unasked and bulk writes are counted."""
    monkeypatch.setattr(Route, "write_unasked", property(lambda self: False))
    world = world_build(alice, bob, website)
    requests = {r.name: r for r in REQUESTS}
    # The compromised router answers ATTACKS[index % len(ATTACKS)]: pick the index for each attack.
    picked = [Case(ATTACKS.index(attack), "task_title", PAYLOADS[0], requests[name], PAYLOADS[0].text)
              for attack, name in (("bulk_done", "list_mine"), ("escalate", "summarise"))]
    kinds = {v.split(":", 1)[0] for case in picked
             for v in run_case(world, case, corpus_model, compromised=True).violations}
    assert {"unasked", "bulk"} <= kinds, kinds
