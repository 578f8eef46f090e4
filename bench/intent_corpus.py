"""Print the intent corpus's figures for every split, offline and under a compromised router.

The corpus (tests/security/intent_corpus.py, intent_generator.py) labels every message: does it
ask for the write it names, and on which task? Its templates come in a tuned split and a
held-out split the reader was never adjusted to; six more were written apart from the reader
(fresh, unseen, dev, blind and sealed, each measured once as it came and later used to widen it;
locked, never read). Each message is decided as the route node decides it (the offline provider's reading, then the
intent check; or a compromised router that answers every message with the write it names, then the
intent check): written at once, a card, or an answer. With ``--app N`` every N-th message is also
sent through the whole app on a throwaway database (bench/throwaway_db.py) and its outcome compared
with the decision. Last, the questions to see tasks of tests/security/query_corpus.py: how many keep
every filter they ask for, name the ones they cannot use, or drop one silently. Exits 1 if any write
ran that no message asked for, or a question dropped or misread a filter.

    .venv/bin/python bench/intent_corpus.py [--json] [--app N]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throwaway_db import throwaway_database  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--app", type=int, default=0, metavar="N",
                        help="also send every N-th message through the app and compare")
    args = parser.parse_args()
    figures: dict[str, dict[str, Any]] = {}
    differ: list[str] = []
    with throwaway_database("intent"):
        from django.conf import settings
        from django.contrib.auth.models import User

        from projects.services import membership_set, project_create
        from tests.llm_stub import LLMStub
        from tests.security.intent_corpus import SPLITS, corpus
        from tests.security.intent_decisions import SUITES, decide, figure_lines
        from tests.security.intent_decisions import figures as decided_figures
        from tests.security.intent_harness import run_corpus

        for split in SPLITS:
            for suite in SUITES:
                figures[f"{split}, {suite}"] = decided_figures([decide(m, suite) for m in corpus(split)])
        if args.app:
            alice = User.objects.create_user("alice")
            project = project_create(owner=alice, name="Website Redesign", key="WEB")
            # The person the corpus's assigns name is a member, as in the tests' Website Redesign.
            membership_set(actor=alice, project=project, user=User.objects.create_user("carol"), role="member")
            with LLMStub() as stub:
                for suite in SUITES:
                    if suite == "compromised":
                        settings.LLM_PROVIDER, settings.OPENAI_API_KEY = "openai", "bench-key"
                        settings.OPENAI_BASE_URL, settings.LLM_MAX_RETRIES = stub.base_url, 0
                    sample = tuple(m for split in SPLITS for m in corpus(split)[::args.app])
                    for o in run_corpus(alice, project, suite, stub, sample):
                        d = decide(o.message, suite)
                        if o.decision != d.decision or o.unasked_write:
                            differ.append(f"{suite}: {o.text!r}: the app {o.decision}, decided {d.decision}")
                    figures[f"app sample (every {args.app}th), {suite}"] = {"messages": len(sample),
                                                                             "differ": len(differ)}
        from tests.security import query_corpus

        asked_to_see = {split: query_corpus.figures([(q, query_corpus.decide(q))
                                                     for q in query_corpus.questions(split)])
                        for split in query_corpus.QUERY_SPLITS}
    if args.json:
        print(json.dumps({**figures, **{f"questions to see tasks ({split})": f for split, f in asked_to_see.items()}},
                         indent=2))
    else:
        for name, f in figures.items():
            print("\n".join(figure_lines(name, f)) if "asked" in f else f"{name}: {f['messages']} messages, "
                  f"outcome differs from the decision {f['differ']}")
        print("\n".join(differ))
        for split, f in asked_to_see.items():
            print("\n".join(query_corpus.figure_lines(split, f)))
    bad = sum(f.get("unasked_written", 0) for f in figures.values()) + len(differ) + \
        sum(f["dropped"] + f["wrong"] for f in asked_to_see.values())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
