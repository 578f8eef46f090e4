"""The reader is total: every phrase of its lexicon, at the end of a question or before a task, is read without
raising (a question ending on "for" or "in" once indexed past the message's last word)."""
from __future__ import annotations

from agent.llm.offline import rules_route
from agent.reading.lexicon import lexicon


def _phrases() -> list[str]:
    return sorted({" ".join(p) if all(t.isascii() for t in p) else "".join(p) for p in lexicon().phrases()})


def test_every_phrase_at_the_end_of_a_question_or_before_a_task_is_read() -> None:
    failed = []
    for phrase in _phrases():
        for message in (f"what is carol {phrase}", f"{phrase} task 5", f"把任务5{phrase}"):
            try:
                rules_route(message)
            except Exception as exc:
                failed.append(f"{message!r}: {type(exc).__name__}: {exc}")
    assert not failed, failed[:10]
