"""Where one filter of a question ends and the next begins, as the reader reads them (agent/reading/reads.py).

A project's name ends where another filter or a clause begins ("in Mobile App due before Friday",
"in Website Redesign that are blocked"), and a day in words does not take a word it does not need
("due Friday in Mobile App"): each filter is read, none swallowed by another.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from agent.reading.dates import read_date
from agent.reading.reader import read


@pytest.mark.parametrize(("message", "expected"), [
    ("tasks in Mobile App due before Friday", {"project_name": "Mobile App", "due_before": "friday-1"}),
    ("tasks due before Friday in Mobile App", {"project_name": "Mobile App", "due_before": "friday-1"}),
    ("tasks due Friday in Mobile App", {"project_name": "Mobile App", "due_after": "friday", "due_before": "friday"}),
    ("blocked tasks in Mobile App assigned to carol", {"project_name": "Mobile App", "status_filter": ["blocked"],
                                                       "assignee": "carol"}),
    ("tasks in Website Redesign that are blocked", {"project_name": "Website Redesign",
                                                    "status_filter": ["blocked"]}),
    ("tasks in Website Redesign which are overdue", {"project_name": "Website Redesign", "preset": "overdue"}),
])
def test_each_filter_is_read_and_none_swallows_the_next(message: str, expected: dict[str, Any]) -> None:
    friday = read_date("Friday")  # the day's own reading is dates.py's; here, where the filters end
    assert friday is not None
    days = {"friday": friday.isoformat(), "friday-1": (friday - timedelta(days=1)).isoformat()}
    reading = read(message)
    assert reading.capability == "query" and not reading.unusable, reading
    assert {k: reading.slots.get(k) for k in expected} == {k: days.get(v, v) if isinstance(v, str) else v
                                                            for k, v in expected.items()}


def test_a_date_keeps_the_year_it_names() -> None:
    reading = read("tasks due Dec 31 2026")
    assert reading.slots.get("due_after") == reading.slots.get("due_before") == "2026-12-31"
