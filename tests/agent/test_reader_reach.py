"""The reader's reach beyond its plainest phrasings, and where it stops short of a write.

Misspelt words (and Chinese homophones) are put right against the lexicon (agent/reading/repair.py) and a
correction names the task a change is for; both are read, never read whole, so they are offered on a card. Words the
lexicon declares (a priority in words, the person before the task, an assignee taken off) are read
whole like any other phrase.
"""
from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.utils import timezone

from agent.reading.reader import read, read_write
from agent.reading.repair import repaired


@pytest.mark.parametrize(("message", "fixed"), [
    ("mrak task 5 as done", "mark task 5 as done"),
    ("set taks 5 to P0", "set task 5 to P0"),
    ("delte task 5", "delete task 5"),
    ("asign task 5 to carol", "assign task 5 to carol"),
    ("mark task 5 as blockd", "mark task 5 as blocked"),  # a letter left out, not one added ("block")
])
def test_a_misspelt_word_is_put_right_against_the_lexicon(message: str, fixed: str) -> None:
    assert repaired(message) == fixed


@pytest.mark.parametrize(("message", "fixed"), [
    ("把任务5标记为完城", "把任务5标记为完成"),
    ("任务5改成租塞", "任务5改成阻塞"),
    ("把任务5的负则人去掉", "把任务5的负责人去掉"),  # the longest run that sounds like a phrase
    ("任务5分陪给carol", "任务5分配给carol"),
    ("WEB-5重名名为Launch plan", "WEB-5重命名为Launch plan"),  # 重 read chong, not zhong
    ("帮我新键一个任务", "帮我新建一个任务"),
])
def test_a_chinese_word_typed_as_its_homophone_is_put_right(message: str, fixed: str) -> None:
    assert repaired(message) == fixed


@pytest.mark.parametrize("message", ["mark task 5 as done", "show my tasks", "WEB-5 to carol", "ok",
                                     "把任务5标记为完成", "今天天气不错", "任务5的负责人是谁"])
def test_words_of_the_lexicon_and_names_are_left_alone(message: str) -> None:
    assert repaired(message) is None


@pytest.mark.parametrize(("message", "operation", "values"), [
    ("mrak task 5 as done", "update", (("status", "done"),)),
    ("plese delte task 5", "delete", ()),
    ("renmae task 5 to Launch plan", "rename", ()),
    ("帮我把5号任务标记为完城", "update", (("status", "done"),)),
    ("把任务5该名为Launch plan", "rename", ()),
    ("WEB-5山掉吧", "delete", ()),
])
def test_a_change_read_through_a_corrected_word_is_only_offered(message: str, operation: str,
                                                               values: tuple[Any, ...]) -> None:
    reading = read(message)
    assert reading.mood == "unread" and not reading.asks_write
    assert reading.change is not None and reading.change.operation == operation
    assert reading.change.target.task_id == 5 and reading.change.values == values


def test_a_misspelt_negation_stays_a_negation() -> None:
    reading = read_write("dont mrak task 5 as done")
    assert reading is not None and reading.mood == "negated"


@pytest.mark.parametrize("message", ["mark task 5 done, no wait, task 6", "set task 5 to done - I mean task 6",
                                     "把任务5标记为完成，说错了，是任务6"])
def test_a_correction_offers_the_change_on_the_second_task_only(message: str) -> None:
    reading = read_write(message)
    assert reading is not None and reading.mood == "unread"
    assert reading.change.target.task_id == 6


@pytest.mark.parametrize("message", ["mark task 5 done and task 6", "mark task 5 done, then look at task 6"])
def test_two_tasks_without_a_correction_name_no_change(message: str) -> None:
    assert read_write(message) is None


def test_it_in_a_message_that_names_one_task_is_that_task() -> None:
    reading = read_write("task 5 shipped this morning, mark it done")
    assert reading is not None and reading.mood == "unread" and reading.change.target.task_id == 5


@pytest.mark.parametrize(("message", "capability", "slots"), [
    ("bump task 5 to top priority", "crud", {"operation": "update", "task_id": 5, "priority": "P0"}),
    ("把任务5的优先级调到最高", "crud", {"operation": "update", "task_id": 5, "priority": "P0"}),
    ("block task 5", "crud", {"operation": "update", "task_id": 5, "status": "blocked"}),
    ("把任务5挂起", "crud", {"operation": "update", "task_id": 5, "status": "blocked"}),
    ("assign carol to task 5", "crud", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("让carol负责任务5", "crud", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("take carol off task 5", "crud", {"operation": "unassign", "task_id": 5}),
    ("clear the assignee of task 5", "crud", {"operation": "unassign", "task_id": 5}),
    ("leave task 5 unassigned", "crud", {"operation": "unassign", "task_id": 5}),
    ("把任务5的负责人去掉", "crud", {"operation": "unassign", "task_id": 5}),
    ("取消任务5的分配", "crud", {"operation": "unassign", "task_id": 5}),
    ("change the title of task 5 to Launch plan", "crud", {"operation": "rename", "task_id": 5,
                                                            "title": "Launch plan"}),
    ("add Release notes as a task", "crud", {"operation": "create", "title": "Release notes"}),
    ("set the due date on task 5 to December 31, 2026", "crud", {"operation": "update", "task_id": 5,
                                                                  "due_date": "2026-12-31"}),
])
def test_declared_phrasings_are_read_whole(message: str, capability: str, slots: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.mood == "request", reading
    assert reading.capability == capability
    assert {k: v for k, v in reading.slots.items() if k in slots} == slots


@pytest.mark.parametrize("message", ["把 task 5 rename 成 Launch plan", "#5 的名字 change 成 Launch plan",
                                     "rename task 5 to Launch plan"])
def test_a_new_title_never_begins_with_the_word_that_leads_to_it(message: str) -> None:
    reading = read(message)
    assert reading.change is not None and reading.change.title == "Launch plan", reading


@pytest.mark.parametrize(("message", "values"), [
    ("WEB-5 → done", (("status", "done"),)), ("task 5: P0", (("priority", "P0"),)),
    ("task 5 is done", (("status", "done"),)), ("任务5的优先级：P0", (("priority", "P0"),)),
    ('task 5 → "blocked"', (("status", "blocked"),)),
])
def test_a_task_and_a_value_with_no_verb_are_only_offered(message: str, values: tuple[Any, ...]) -> None:
    reading = read(message)
    assert reading.mood == "unread" and reading.change is not None
    assert reading.change.target.task_id == 5 and reading.change.values == values


@pytest.mark.parametrize("message", ["task 5 done?", "Is task 5 done?", "任务5完成了吗？"])
def test_a_question_about_a_value_is_no_change(message: str) -> None:
    assert read(message).mood is None


@pytest.mark.parametrize(("message", "field", "value"), [
    ("wrap task 5 up", "status", "done"), ("tick WEB-5 off please", "status", "done"),
    ("make task 5 high priority", "priority", "P1"),
    ("move task 5 to the end of the year", "due_date", "year end"),
    ("把任务5的截止日期改到年底", "due_date", "year end"),
    ("set task 5 due 12/31", "due_date", "year end"),
])
def test_phrasal_verbs_priorities_and_dates_in_words_are_read_whole(message: str, field: str, value: str) -> None:
    if value == "year end":
        value = date(timezone.localdate().year, 12, 31).isoformat()
    reading = read(message)
    assert reading.mood == "request" and reading.change is not None and reading.change.values == ((field, value),)


@pytest.mark.parametrize(("message", "slots"), [
    ("把5号任务标记完成", {"operation": "update", "task_id": 5, "status": "done"}),
    ("mark as done task 5", {"operation": "update", "task_id": 5, "status": "done"}),
    ("can you add a to-do for Release notes?", {"operation": "create", "title": "Release notes"}),
    ("change task 5's name to Launch plan", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    ("unassign carol from task 5", {"operation": "unassign", "task_id": 5}),
    ("set the assignee of task 5 to carol", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("hand WEB-5 over to carol", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("把任务5的负责人改成carol", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("创建一个名为Release notes的任务", {"operation": "create", "title": "Release notes"}),
])
def test_more_declared_phrasings_are_read_whole(message: str, slots: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.mood == "request", reading
    assert {k: v for k, v in reading.slots.items() if k in slots} == slots


@pytest.mark.parametrize(("message", "expected"), [
    ("del 900", {"operation": "delete", "task_id": 900}),  # a number alone where a task goes
    ("can u raise 900 to p0 asap", {"operation": "update", "task_id": 900, "priority": "P0"}),
    ("make carol the owner of task 5", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("task 5 assign 给 carol 吧", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("把任务5的名字改成Launch plan哈", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    ("这个 task 的 owner 换成 carol", {"operation": "assign", "scope": "selected", "assignee": "carol"}),
    ("这个任务先取消分配吧", {"operation": "unassign", "scope": "selected"}),  # an adverb before the verb
    ("任务5的名字给改成Launch plan", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    ("麻烦把5号任务设为未分配，谢谢", {"operation": "unassign", "task_id": 5}),
    ("create 一个 task 叫 Release notes", {"operation": "create", "title": "Release notes"}),
    ("麻烦把任务5 bump 到 P0 一下", {"operation": "update", "task_id": 5, "priority": "P0"}),
    ("5号任务负责人清空一下", {"operation": "unassign", "task_id": 5}),
    ("帮忙把5号任务改成无人负责哈", {"operation": "unassign", "task_id": 5}),
    ("#5 的 priority 改成 P0，thx", {"operation": "update", "task_id": 5, "priority": "P0"}),
    ("Would you be so kind as to change the due date of task 5 to 2026-12-31?",
     {"operation": "update", "task_id": 5, "due_date": "2026-12-31"}),
    # A value in quotes, a quoted title before its noun, 重命名 with 成.
    ('set task 5 to "blocked"', {"operation": "update", "task_id": 5, "status": "blocked"}),
    ("请将5号任务状态改为“阻塞”", {"operation": "update", "task_id": 5, "status": "blocked"}),
    ("烦请将任务5的状态更新为“已完成”。", {"operation": "update", "task_id": 5, "status": "done"}),
    ("Would you mind creating a \"Release notes\" task?", {"operation": "create", "title": "Release notes"}),
    ("麻烦帮我把任务5重命名成“Launch plan”，谢谢", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    # A status with 状态 after it, 标 alone, a label after a comma, who takes it on after the person, 至, "up to".
    ("任务5改成已完成状态", {"operation": "update", "task_id": 5, "status": "done"}),
    ("任务5 标完成", {"operation": "update", "task_id": 5, "status": "done"}),
    ("帮我创建一个任务，标题是Release notes", {"operation": "create", "title": "Release notes"}),
    ("麻烦把5号任务交给carol负责，谢谢", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("请把5号任务的指派人去掉", {"operation": "unassign", "task_id": 5}),
    ("烦请将WEB-5的到期日调整至2026-12-31。", {"operation": "update", "task_id": 5}),
    ("Could you bump task 5 up to P0, please?", {"operation": "update", "task_id": 5, "priority": "P0"}),
    ("任务5标个阻塞", {"operation": "update", "task_id": 5, "status": "blocked"}),
    ("新建一个任务，叫做登录修复", {"operation": "create", "title": "登录修复"}),
    # An arrow to a new title, 给 to a person in a mixed message.
    ("rename 900 → Launch plan", {"operation": "rename", "task_id": 900, "title": "Launch plan"}),
    ("任务5 rename → Launch plan", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    ("帮我 assign task 5 给 carol", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
])
def test_these_are_read_whole(message: str, expected: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.mood == "request", reading
    assert expected.items() <= reading.slots.items(), reading.slots


@pytest.mark.parametrize(("message", "unwanted"), [
    ("delete 3 tasks", {"task_id": 3}),  # a count, not a task
    ("set task 5 due 12/31", {"task_id": 12}),  # a date, not a task
    ("麻烦把任务5 assign to carol 一下", {"assignee": "to"}),  # a word of the grammar is nobody's name
    ("status of 5 → blocked please, the upstream lib broke", {"operation": None}),  # "broke" breaks nothing down
    ('mark task 5 as "done today"', {"status": "done"}),  # quoted, a value and nothing else
    ('rename task 5 to "Done"', {"status": "done"}),  # a new title, whatever it says
])
def test_numbers_and_words_of_the_grammar_are_not_what_they_are_not(message: str, unwanted: dict[str, Any]) -> None:
    reading = read(message)
    assert not unwanted.items() <= reading.slots.items(), reading
    if "broke" in message:
        assert reading.capability != "decompose", reading
