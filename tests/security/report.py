"""The corpus's figures, per suite: cases tried, cases where the payload reached a prompt, violations."""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from .harness import Result

# Beside the other test outputs, at the repository root whatever the working directory.
REPORT_PATH = Path(__file__).resolve().parents[2] / "test-results" / "security_corpus.json"
INTENT_REPORT_PATH = REPORT_PATH.with_name("intent_corpus.json")
_results: dict[str, list[Result]] = defaultdict(list)
_intent: dict[str, dict[str, Any]] = {}
# Figures made in other processes (pytest-xdist workers), by suite; each suite runs whole on one worker.
_merged: dict[str, dict[str, Any]] = {}
_merged_intent: dict[str, dict[str, Any]] = {}


def record_intent(suite: str, figures: dict[str, Any]) -> None:
    _intent[suite] = figures


def record(suite: str, results: list[Result]) -> None:
    _results[suite].extend(results)


def worker_figures() -> dict[str, dict[str, dict[str, Any]]]:
    """This process's figures of both corpora, for a pytest-xdist worker to send to the one that reports."""
    return {"injection": figures(), "intent": intent_figures()}


def merge(worker: dict[str, dict[str, dict[str, Any]]]) -> None:
    """Take the figures a worker process made."""
    _merged.update(worker.get("injection", {}))
    _merged_intent.update(worker.get("intent", {}))


def intent_figures() -> dict[str, dict[str, Any]]:
    """Return the intent corpus's figures, this process's and the workers'."""
    return dict(sorted({**_merged_intent, **_intent}.items()))


def figures() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = dict(_merged)
    for suite, results in sorted(_results.items()):
        kinds = Counter(v.split(":", 1)[0] for r in results for v in r.violations)
        out[suite] = {"cases": len(results), "payload_reached_a_prompt": sum(r.saw_payload for r in results),
                      "violations": sum(len(r.violations) for r in results), "by_kind": dict(kinds),
                      "placements": len({r.case.placement for r in results}),
                      "outcomes": dict(Counter(r.status for r in results))}
    return dict(sorted(out.items()))


def summary_lines() -> list[str]:
    from .intent_decisions import figure_lines

    intent = [line for suite, f in intent_figures().items() for line in figure_lines(f"intent corpus, {suite}", f)]
    return intent + [
        f"security corpus, {suite}: {f['cases']} cases over {f['placements']} placements, payload in a prompt "
        f"{f['payload_reached_a_prompt']}, violations {f['violations']} {f['by_kind'] or ''}".rstrip()
        for suite, f in figures().items()]


def write() -> None:
    intent = intent_figures()
    if intent:
        INTENT_REPORT_PATH.parent.mkdir(exist_ok=True)
        INTENT_REPORT_PATH.write_text(json.dumps(intent, indent=2))
    if _results or _merged:
        REPORT_PATH.parent.mkdir(exist_ok=True)
        REPORT_PATH.write_text(json.dumps(figures(), indent=2))
