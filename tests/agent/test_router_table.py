"""The offline router on a table of English and Chinese requests: every row routes as written.

The table (data/router_table.jsonl) holds one request a line with its expected capability and the
slots that matter (scope, project name, typed task number, filters); a slot left out is not checked.
Each answer also passes the same validation as a model's (Slots), so the table proves what the
service would act on.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agent.llm.offline import OfflineProvider
from agent.registry import CAPABILITIES, HELP_EXAMPLES, NAMES, PHRASES, Phrases
from agent.routing.decision import ROUTE_SCHEMA, Slots

# The capabilities the offline reader selects by their phrases alone (crud's and query's are read by its rules).
_PHRASE_READ = {name for name in PHRASES if name not in ("crud", "query")}


def _reads(phrases: Phrases, text: str) -> bool:
    """Whether a phrase occurs in the lower-cased text as the reader matches it: Latin whole, Chinese anywhere."""
    return any(re.search(rf"(?<![a-z0-9_]){re.escape(w)}(?![a-z0-9_])", text)
               for words in (*phrases.en.values(), *phrases.zh.values()) for w in words)


TABLE = [json.loads(line) for line in (Path(__file__).parent / "data" / "router_table.jsonl").read_text(
    encoding="utf-8").splitlines() if line.strip()]


def _route(message: str) -> dict[str, Any]:
    reply = OfflineProvider().complete(role="router", messages=[{"role": "user", "content": message}],
                                       json_schema=ROUTE_SCHEMA)
    answer: dict[str, Any] = json.loads(reply.text)
    return answer


def test_the_table_covers_both_languages_and_every_capability() -> None:
    languages = Counter(row["lang"] for row in TABLE)
    assert languages["en"] >= 80 and languages["zh"] >= 40
    for lang in ("en", "zh"):
        covered = {row["capability"] for row in TABLE if row["lang"] == lang}
        # A capability without rows here is read by its own phrases, which help's test routes in both languages.
        assert covered <= set(NAMES) and set(NAMES) - covered <= {spec.name for spec in HELP_EXAMPLES}
        assert set(NAMES) - _PHRASE_READ <= covered, "own rules need rows here"
    assert len({row["message"] for row in TABLE}) == len(TABLE), "each request appears once"


@pytest.mark.parametrize("row", TABLE, ids=[f"{row['lang']}:{row['message']}" for row in TABLE])
def test_offline_router_routes_the_row(row: dict[str, Any]) -> None:
    answer = _route(row["message"])
    assert answer["capability"] == row["capability"]
    assert {key: answer["slots"][key] for key in row["slots"]} == row["slots"]
    Slots.model_validate({k: v for k, v in answer["slots"].items() if v is not None})
    # An unclear request is below the confidence floor, so the service asks back with the page's buttons.
    assert (answer["confidence"] < 0.5) == (row["capability"] == "clarify")


@pytest.mark.parametrize("message", [row["message"] for row in TABLE] + [
    example for spec in CAPABILITIES for example in (spec.example, spec.example_zh) if example])
def test_no_request_is_read_by_the_phrases_of_two_capabilities(message: str) -> None:
    """The offline reader tries the capabilities' phrases in the registry's order; were two to match, `order`
    would decide between them unseen. Phrases of different capabilities must not match the same request."""
    matched = [name for name in _PHRASE_READ if _reads(PHRASES[name], message.lower())]
    assert len(matched) <= 1, f"{message!r} matches the phrases of {matched}: make their phrases disjoint"
