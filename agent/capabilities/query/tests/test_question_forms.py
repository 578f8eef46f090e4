"""The forms a question to see tasks takes around its filters, as the reader reads them (agent/reading/reads.py,
names.py): polite frames, "or" between two values, a person or a project named without "assigned to" or "in",
misspellings. Each either keeps every filter or names what it could not use; none is guessed.
"""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from agent.reading.reader import read
from pm_assistant.vocabulary import OPEN_STATUSES, PRIORITIES, STATUSES


def _query(message: str) -> dict[str, Any]:
    reading = read(message)
    assert reading.capability == "query" and not reading.unusable, reading
    return {k: v for k, v in reading.slots.items() if v not in (None, [], False)}


@pytest.mark.parametrize(("message", "expected"), [
    # Request frames and greetings around a question ask nothing more.
    ("could you pull up the blocked tasks?", {"status_filter": ["blocked"]}),
    ("hi there, I'd like to see the P2 tasks please", {"priority_filter": ["P2"]}),
    ("请帮我看一下待办的任务", {"status_filter": ["todo"]}),
    ("您好，有没有逾期的任务？", {"preset": "overdue"}),
    # A person before Chinese, in "what does … have", leading a terse question, or after "for" before a filter.
    ("mia的P2任务", {"assignee": "mia", "priority_filter": ["P2"]}),
    ("oscar 手上 blocked 的任务", {"assignee": "oscar", "status_filter": ["blocked"]}),
    ("what does oscar have?", {"assignee": "oscar"}),
    ("oscar blocked", {"assignee": "oscar", "status_filter": ["blocked"]}),
    ("anything for oscar that is overdue?", {"assignee": "oscar", "preset": "overdue"}),
    # A project in capitals before what is listed, or in Chinese before 项目.
    ("show the Payments Revamp tasks", {"project_name": "Payments Revamp"}),
    ("客服系统项目里的P0", {"project_name": "客服系统", "priority_filter": ["P0"]}),
    # Statuses and "nobody" in more words.
    ("tasks that haven't started", {"status_filter": ["todo"]}),
    ("还没开始的任务", {"status_filter": ["todo"]}),
    ("unowned P1s", {"unassigned": True, "priority_filter": ["P1"]}),
    ("everything overdue across all my projects", {"preset": "overdue"}),
    # Overdue is open already: "overdue and not done" is overdue.
    ("overdue tasks that aren't done", {"preset": "overdue"}),
])
def test_the_question_keeps_every_filter(message: str, expected: dict[str, Any]) -> None:
    assert _query(message) == expected


# Statuses whose name is also their word ("todo", "blocked"), and every priority: "or" between two lists both.
_WORDED = [s for s in STATUSES if "_" not in s]


@pytest.mark.parametrize(("template", "slot", "values"), [
    ("{} or {} tasks", "status_filter", _WORDED[:2]),
    ("either {} or {}", "priority_filter", list(PRIORITIES)[2:]),
    ("优先级是{}或者{}的任务", "priority_filter", list(PRIORITIES)[1:3]),
])
def test_or_between_two_values_of_one_filter_lists_both(template: str, slot: str, values: list[str]) -> None:
    assert _query(template.format(*values)) == {slot: values}


def test_not_done_is_every_open_status() -> None:
    assert set(_query("oscar's tasks that are not finished")["status_filter"]) == set(OPEN_STATUSES)


@pytest.mark.parametrize(("message", "unread"), [
    ("blocked or overdue tasks", "or"),  # "or" across two filters would be read as "and": named instead
    ("P1 tasks or carol's", "or"),
])
def test_or_between_two_filters_is_named_not_read_as_and(message: str, unread: str) -> None:
    reading = read(message)
    assert reading.capability == "clarify" and unread in reading.unusable, reading


@pytest.mark.parametrize(("message", "expected"), [
    ("shwo overdeu tasks", {"preset": "overdue"}),
    ("blokced tasks in Mobile App", {"status_filter": ["blocked"], "project_name": "Mobile App"}),
    ("blcoked 的任务", {"status_filter": ["blocked"]}),  # a misspelt status is no person's name
])
def test_a_misspelt_question_is_read_as_put_right(message: str, expected: dict[str, Any]) -> None:
    assert _query(message) == expected


def test_a_capitalised_word_is_never_put_right() -> None:
    """"Billing" is a project's name, not "killing" misspelt: the question names the word it could not use."""
    reading = read("tasks in Billing Migration craeted last week")
    assert reading.slots.get("project_name") in (None, "Billing Migration"), reading


@pytest.mark.parametrize("message", ["有 attachments 的任务", "label 是 backend 的任务"])
def test_a_word_of_what_tasks_have_is_no_person(message: str) -> None:
    reading = read(message)
    assert reading.capability == "clarify" or not reading.slots.get("assignee"), reading


def _month_days(first: date) -> tuple[str, str]:
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return first.isoformat(), (following - timedelta(days=1)).isoformat()


@pytest.mark.parametrize("message", ["anything due in March?", "3月到期的任务有哪些", "tasks due March"])
def test_a_month_is_its_first_to_last_day_this_year_or_next(message: str) -> None:
    today = timezone.localdate()
    first = date(today.year + (today.month > 3), 3, 1)
    slots = _query(message)
    assert (slots["due_after"], slots["due_before"]) == _month_days(first)


def test_between_two_days_is_the_range_from_the_first_to_the_last() -> None:
    today = timezone.localdate()
    first, last = today - timedelta(days=3), today + timedelta(days=4)  # a day just gone reads as this year's
    message = f"what is due between {first:%b} {first.day} and {last:%b} {last.day}?"
    slots = _query(message)
    assert (slots["due_after"], slots["due_before"]) == (first.isoformat(), last.isoformat())


def test_nobodys_tasks_are_the_unassigned_ones() -> None:
    assert _query("nobody's tasks") == {"unassigned": True}


@pytest.mark.parametrize(("message", "first", "named"), [
    ("blocked tasks and overdue tasks", {"status_filter": ["blocked"]}, "overdue tasks"),
    ("P0 tasks for bob, P1 tasks for carol", {"priority_filter": ["P0"], "assignee": "bob"}, "P1 tasks for carol"),
    ("bob的逾期任务和carol的阻塞任务", {"assignee": "bob", "preset": "overdue"}, "carol的阻塞任务"),
    ("阻塞任务、逾期任务", {"status_filter": ["blocked"]}, "逾期任务"),
])
def test_a_second_list_is_named_not_folded_into_the_first(message: str, first: dict[str, Any], named: str) -> None:
    """Two lists of tasks ("X tasks and Y tasks") are not one list that matches both: the first is
    listed, the second named as not used."""
    reading = read(message)
    assert reading.capability == "query" and reading.slots == first and reading.unusable == (named,), reading


def test_two_values_before_one_task_noun_are_still_one_list() -> None:
    assert _query("carol's blocked and overdue tasks") == {"assignee": "carol", "status_filter": ["blocked"],
                                                           "preset": "overdue"}


@pytest.mark.parametrize(("message", "status", "named"), [("tasks I finished", "done", "I finished"),
                                                          ("things I need to do", "todo", "I need to")])
def test_i_before_what_was_done_is_named_not_dropped(message: str, status: str, named: str) -> None:
    """Who closed a task is no filter a query has: the status is read, the rest named."""
    reading = read(message)
    assert reading.slots == {"status_filter": [status]} and reading.unusable == (named,), reading


def test_i_asking_to_see_is_not_mine() -> None:
    assert _query("can I see the blocked tasks") == {"status_filter": ["blocked"]}
