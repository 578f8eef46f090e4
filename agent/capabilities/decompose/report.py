"""The end of a breakdown in words and data: what was done, what was not, and why."""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from agent.context.words import quote_user_text
from agent.state import Outcome
from agent.words.language import Language

from .answers import TEXTS, steps_word
from .planner import OFFLINE

SHOWN = 10


def parent_row(brief: Mapping[str, Any]) -> dict[str, Any]:
    """The selected task as a step result, so a binding to it reads "$.id" like any other."""
    return {"id": brief["task_id"], "key": brief["key"], "title": brief["title"], "status": brief["status"],
            "priority": brief["priority"], "due_date": brief["due_date"], "assignee_name": brief["assignee_name"],
            "project": brief["project"]}


DROPPED = "dropped"


def dropped_entries(card_steps: Sequence[Mapping[str, Any]], dropped: Collection[str]) -> list[dict[str, Any]]:
    """The steps the user unchecked on the card, in its words, as log entries of steps that did not run."""
    return [{"step": step["id"], "tool": step["tool"], "words": step["words"], "status": DROPPED,
             "code": "unchecked", "reason": "the user unchecked it on the plan card"}
            for step in card_steps if step["id"] in dropped]


def finish_outcome(log: Sequence[Mapping[str, Any]], *, planner: str, asked: int,
                   language: Language = "en") -> Outcome:
    """Done when any step ran; an error naming the first failure when none did (in the request's language)."""
    words = TEXTS[language]
    left_out = [e for e in log if e["status"] == DROPPED]
    approved = [e for e in log if e["status"] != DROPPED]
    done = [e for e in approved if e["status"] == "done"]
    missed = [e for e in approved if e["status"] != "done"]
    created = [e["result"] for e in done if e["tool"] == "create_subtask"]
    lines = [words["done_of"].format(done=len(done), count=len(approved), steps=steps_word(len(approved), words))]
    if created:
        titles = words["join"].join(quote_user_text(row["title"], 80) for row in created)
        lines.append(words["created"].format(titles=titles))
    lines += [words["not_done"].format(words=e["words"], status=words.get(f"status_{e['status']}", e["status"]),
                                       reason=e.get("said") or e["reason"]) for e in missed]
    if left_out:
        key = "dropped_one" if len(left_out) == 1 else "dropped_many"
        lines.append(words[key].format(steps=words["reason_join"].join(e["words"] for e in left_out)))
    if planner == OFFLINE:
        lines.append(words["offline"])
    data = {"items": created[:SHOWN], "count": len(created), "planner": planner, "plan_asks": asked,
            "steps": [{k: e.get(k) for k in ("step", "tool", "words", "status", "code", "reason")} for e in log]}
    if done:
        return {"status": "done", "reply": words["between"].join(lines), "data": data}
    return {"status": "error", "reply": words["between"].join(lines), "data": data, "error_code": missed[0]["code"]}
