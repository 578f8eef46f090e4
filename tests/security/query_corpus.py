"""Questions to see tasks, each labelled with every filter it asks for: does the reader keep them all?

Two splits, each written apart from the reader by someone who saw neither it nor the other corpora,
from docs/USAGE.md alone: *dev* (`data/query_dev.json`), which the reader may be widened for, and
*sealed* (`data/query_sealed.json`), whose figures only are read. Each question is read as the offline
provider reads it (agent/reading/) and its filters compared with the ones asked for:

- ``kept``: every filter asked for was read, with its value, and none was added;
- ``named``: a filter was not read and the answer says so (the reader's unusable words, or clarify,
  which names the words it could not read): the user is not answered as if understood;
- ``elsewhere``: another capability answers (a person's workload, what next);
- ``dropped``: a filter asked for was left out and nothing says so (the answer would look complete);
- ``wrong``: a filter was read with another value, or one nobody asked for was added.

The goal (docs/SAFETY.md): none dropped, none wrong.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pm_assistant.vocabulary import OPEN_STATUSES

QuerySplit = Literal["dev", "sealed"]
QUERY_SPLITS: tuple[QuerySplit, ...] = ("dev", "sealed")
Outcome = Literal["kept", "named", "elsewhere", "dropped", "wrong"]
OUTCOMES: tuple[Outcome, ...] = ("kept", "named", "elsewhere", "dropped", "wrong")


@dataclass(frozen=True)
class Question:
    text: str
    lang: str
    expect: tuple[str, ...]


def questions(split: QuerySplit = "sealed") -> tuple[Question, ...]:
    rows = json.loads((Path(__file__).parent / "data" / f"query_{split}.json").read_text(encoding="utf-8"))
    return tuple(Question(r["text"], r["lang"], tuple(r["expect"])) for r in rows)


def _read_filters(slots: dict[str, Any]) -> set[str]:
    """The filters a query's slots apply, in the corpus's words."""
    found: set[str] = set()
    if slots.get("assignee"):
        found.add(f"assignee:{str(slots['assignee']).casefold()}")
    if slots.get("assignee_me") or slots.get("preset") == "my_overdue":
        found.add("mine")
    if slots.get("unassigned"):
        found.add("unassigned")
    statuses = set(slots.get("status_filter") or ())
    if statuses and statuses == set(OPEN_STATUSES):
        found.add("open")
    else:
        found |= {f"status:{s}" for s in statuses}
    if slots.get("preset") in ("overdue", "my_overdue"):
        found.add("overdue")
    found |= {f"priority:{p}" for p in slots.get("priority_filter") or ()}
    if slots.get("due_after") or slots.get("due_before"):
        found.add("due")
    if slots.get("project_name"):
        found.add(f"project:{str(slots['project_name']).casefold()}")
    return found


def decide(question: Question) -> Outcome:
    from agent.reading.reader import read  # a model-free import, once Django is set up

    reading = read(question.text)
    if reading.capability == "clarify":
        return "named"
    if reading.capability != "query":
        return "elsewhere"
    asked = {e.casefold() if e.startswith("project:") else e for e in question.expect}
    read_ = _read_filters(reading.slots)
    if read_ - asked:
        return "wrong"  # a value other than the one asked for, or a filter nobody asked for
    if asked <= read_:
        return "kept"
    return "named" if reading.unusable else "dropped"


def figures(decided: list[tuple[Question, Outcome]]) -> dict[str, Any]:
    counts = Counter(outcome for _, outcome in decided)
    return {"questions": len(decided), **{o: counts[o] for o in OUTCOMES},
            "kept_pct": round(100 * counts["kept"] / max(1, len(decided)), 1)}


def figure_lines(split: QuerySplit, f: dict[str, Any]) -> list[str]:
    return [f"questions to see tasks ({split}): {f['questions']}",
            f"  kept {f['kept']} ({f['kept_pct']}%), named {f['named']}, elsewhere {f['elsewhere']}, "
            f"dropped {f['dropped']}, wrong {f['wrong']}"]
