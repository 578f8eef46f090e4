"""A change pieced together from a message no rule reads (agent/reading/gather.py): offered, never run.

The parts may stand anywhere, around words the grammar cannot account for (a reason, an emoji, a
word order it has no rule for); the change they make is read ``unread``, which the intent check
and the offline provider only ever offer on a card. When the parts do not make one change, or the
message is a question put to no one, nothing is pieced together.
"""
from __future__ import annotations

from typing import Any

import pytest

from agent.reading.reader import read, read_write


@pytest.mark.parametrize(("message", "expected"), [
    ("shipped it 🚀 so task 5's status goes to done now", {"operation": "update", "task_id": 5, "status": "done"}),
    ("Given the outage, #5 goes to P0 — update it", {"operation": "update", "task_id": 5, "priority": "P0"}),
    ("任务5卡住了，在等后端接口，状态改成阻塞", {"operation": "update", "task_id": 5, "status": "blocked"}),
    ("5号任务不要了，帮我删了吧", {"operation": "delete", "task_id": 5}),
    ("Mike's out on leave, so #5 should be assigned to carol", {"operation": "assign", "task_id": 5,
                                                                  "assignee": "carol"}),
    ("#5暂时没人跟，清空负责人", {"operation": "unassign", "task_id": 5}),
    ("marketing wants consistent naming: task 5's title, \"Launch plan\" from now on",
     {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    ("this one's way too big — chop this task into subtasks", {"scope": "selected"}),
    # A number standing alone right after a change's verb or before an arrow, and "900号那个任务" (a number no
    # day of a month can be).
    ("status of 900 → blocked please, the upstream lib broke", {"operation": "update", "task_id": 900,
                                                               "status": "blocked"}),
    ("reassign 900 → carol", {"operation": "assign", "task_id": 900, "assignee": "carol"}),
    ("900号那个任务状态改完成，谢谢～", {"operation": "update", "task_id": 900, "status": "done"}),
    # A date's numbers are no task; a mark may stand between a field and its value.
    ("due date for this task → 31 Dec 2026 pls", {"operation": "update", "scope": "selected",
                                                  "due_date": "2026-12-31"}),
    ("900号任务，截止日期，2026年12月31号，麻烦改下", {"operation": "update", "task_id": 900,
                                                    "due_date": "2026-12-31"}),
    ("这个任务的负责人，换成carol", {"operation": "assign", "scope": "selected", "assignee": "carol"}),
    ("move this task's due date to 31 December 2026 — scope got bigger", {"operation": "update",
                                                                          "scope": "selected"}),
    # A value written as one says which field it sets; a day with its year may stand before its field.
    ("P1 on #5 thanks, the client escalated", {"operation": "update", "task_id": 5, "priority": "P1"}),
    ("March 3, 2027 — make that the deadline of task 5", {"operation": "update", "task_id": 5,
                                                         "due_date": "2027-03-03"}),
    ("期限这块，任务5就按2027年3月3日来", {"operation": "update", "task_id": 5, "due_date": "2027-03-03"}),
    # The assignee cleared in other words; a Chinese name given after "叫".
    ("owner on task 5: wipe it, she left", {"operation": "unassign", "task_id": 5}),
    ("任务5分错人了，负责人置空", {"operation": "unassign", "task_id": 5}),
    ("会上说了，任务5改个名，叫Launch plan", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    # A task and a person with no verb: an arrow, a colon after the field, or 给.
    ("task 900 → carol", {"operation": "assign", "task_id": 900, "assignee": "carol"}),
    ("WEB-5 owner: carol", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
    ("900号任务给carol吧", {"operation": "assign", "task_id": 900, "assignee": "carol"}),
    # A new title or a new task with no verb.
    ("task 5 title -> Launch plan", {"operation": "rename", "task_id": 5, "title": "Launch plan"}),
    ('+task "Release notes"', {"operation": "create", "title": "Release notes"}),
    ("新任务：Release notes", {"operation": "create", "title": "Release notes"}),
    # A pronoun stands for the one person the message names elsewhere.
    ("carol has bandwidth this week, so please assign this task to her", {"operation": "assign",
                                                                          "assignee": "carol"}),
    ("Since Jess is on parental leave, drop her from #5 as assignee", {"operation": "unassign", "task_id": 5,
                                                                       "assignee": "Jess"}),
    ("carol 这周有空，#5 帮我 assign 给她", {"operation": "assign", "task_id": 5, "assignee": "carol"}),
])
def test_the_parts_of_one_change_are_offered_on_a_card(message: str, expected: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.mood == "unread" and not reading.asks_write, reading
    assert expected.items() <= reading.slots.items(), reading.slots


@pytest.mark.parametrize("message", [
    "is task 5 done?",  # a question put to no one is answered, not offered
    "任务5完成了吗",
    "show me the tasks due this week",  # "this week" names no task
    "task 5 and task 6 are stuck, update them",  # two tasks
    "task 5: mark it done, or set it blocked?",  # two values for one field
    "I was thinking about task 5 today",  # no change at all
    "900 and 901: status → blocked please",  # two numbers standing alone: two tasks
    "12号，阻塞，麻烦改一下",  # "12号" may be a day of the month: no task
    "900号，阻塞，麻烦改一下",  # "900号" alone may be a count ("50号人"): no task
    "deadline → friday, costs $500",  # a price, a count, a year: no task
    "bump to P0, affects 300 users",
    "mark its blocker done",  # "its" owns another task here, not a field
    "delete its duplicate",
    "reassign #900: dave is out sick",  # a colon is no arrow to a person
    "这个任务的负责人，carol说她没空",  # a person after a comma, with no word that hands the task over
    "task 5 shipped on March 3, 2027",  # a day with its year, and no field or verb that sets it
    "task 5 was P0, now it's P2",  # two values for one field
    "任务5给我看看",  # 给 a person, then more: shown to me, not handed over
    "task 5 carol",  # a task and a name side by side: nothing leads to the person
    "a new task was created",  # a verb of being begins no title
    "new task is blocked",
    "任务5先别给carol，她手上活太多了",  # 别: not handed over
    "assign task 5 to her",  # a pronoun that stands for no one named
    "Carol and Bob are free, assign task 5 to her",  # for one of two
    "give task 5 to her team, carol says",  # "her" owns the team
])
def test_parts_that_make_no_single_change_are_not_pieced_together(message: str) -> None:
    reading = read_write(message)
    assert reading is None or reading.mood != "request", reading
    if reading is not None:
        assert reading.mood in ("negated", "question") or message.startswith("task 5:"), reading


@pytest.mark.parametrize(("message", "expected"), [
    ("我们组有50号人，把这个任务删了", {"operation": "delete", "scope": "selected"}),  # not task 50
    ("把这个任务设为P0，客户编号1000号", {"operation": "update", "scope": "selected", "priority": "P0"}),
])
def test_a_count_or_a_code_is_never_the_task(message: str, expected: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.slots.get("task_id") is None and expected.items() <= reading.slots.items(), reading


def test_the_plainest_request_is_still_read_whole() -> None:
    reading = read_write("mark task 5 as done")
    assert reading is not None and reading.mood == "request"


@pytest.mark.parametrize("message", ["who deleted task 5?", "what's blocking task 5", "任务5的负责人是谁",
                                     "why was task 5 marked done", "task 5 finished?"])
def test_a_question_for_information_about_a_change_is_answered_not_offered(message: str) -> None:
    assert read_write(message) is None, read_write(message)


@pytest.mark.parametrize("message", ["mark task 5 as done please?", "can task 5 be marked as done?"])
def test_a_yes_no_question_that_asks_the_assistant_still_names_its_change(message: str) -> None:
    reading = read_write(message)
    assert reading is not None and reading.change.target.task_id == 5, reading
