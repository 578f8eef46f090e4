"""Print the intent corpus's confusion figures: which messages asked for a write, and which writes ran.

Runs tests/security/intent_corpus.py (negations, questions, hypotheticals, someone else's words,
retractions, sarcasm and polite requests, English, Chinese and mixed) against the offline provider
and against a compromised router (the tests' stub server answering every routing call with the
write the message names), on a throwaway database (bench/throwaway_db.py). Exits 1 if any write ran
that no message asked for, or any request did not run at once.

    .venv/bin/python bench/intent_corpus.py [--json]
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
    args = parser.parse_args()
    with throwaway_database("intent"):
        from django.conf import settings
        from django.contrib.auth.models import User

        from projects.services import project_create
        from tests.llm_stub import LLMStub
        from tests.security.intent_harness import SUITES, confusion, confusion_lines, run_corpus

        alice = User.objects.create_user("alice")
        project = project_create(owner=alice, name="Website Redesign", key="WEB")
        figures: dict[str, dict[str, Any]] = {}
        with LLMStub() as stub:
            for suite in SUITES:
                if suite == "compromised":
                    settings.LLM_PROVIDER, settings.OPENAI_API_KEY = "openai", "bench-key"
                    settings.OPENAI_BASE_URL, settings.LLM_MAX_RETRIES = stub.base_url, 0
                figures[suite] = confusion(run_corpus(alice, project, suite, stub))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for suite, f in figures.items():
            print("\n".join(confusion_lines(suite, f)))
    bad = sum(f["not_asked_written"] + f["asked_not_written"] for f in figures.values())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
