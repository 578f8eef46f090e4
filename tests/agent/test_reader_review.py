"""Readings a review found wrong, each now read as the message means it or not read at all (fail closed).

Nothing here may be a request (a write at once) unless the message plainly asks for exactly that
write; a question keeps its filters, or names the ones it cannot use.
"""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from agent.reading.dates import read_date
from agent.reading.reader import read, read_write


@pytest.mark.parametrize("words", ["the 3rd", "the 10th", "1", "10", "15日", "本月20日", "5号", "32号", "6月底",
                                   "下个月5号", "December of 2027", "2027 June", "12/2027", "2027.12", "this week",
                                   "next week", "本周", "下周"])
def test_a_day_of_no_month_or_a_week_is_no_date(words: str) -> None:
    assert read_date(words) is None


def test_a_dotted_month_and_day_and_next_years_day_in_chinese_are_read() -> None:
    dotted, next_year = read_date("12.31"), read_date("明年3月1日")
    assert dotted is not None and (dotted.month, dotted.day) == (12, 31)
    assert next_year is not None and (next_year.month, next_year.day) == (3, 1)


@pytest.mark.parametrize("message", [
    "mark task 5 as done today", "mark task 5 done at 10", "把任务5标记为完成，明天",  # a value side by side
    "will task 5 be deleted?", "would task 5 be marked done?",  # what will happen, not a request
    "delete a task", "mark a task as done",  # no task in particular
    "call it a day", "let's call it a day", "call it done", "name it after carol",  # idioms
    "rename task 5 to Launch plan and delete task 6",  # a second instruction, not a title
    "set task 5 due to the 3rd", "set task 5 to 1", "把任务5的截止日期改成15日", "set task 5 due in 2027",
    # A Chinese title needs a word that leads to it; one character is no title; "的话" is a condition.
    "任务5重命名失败", "能重命名任务5吗", "重命名任务5成本很高", "重命名这个文件", "任务5改名失败", "rename 任务5 失败",
    "task 5 rename 成功", "把任务5改名为Launch plan的话会怎样",
    "RM 500", "rm 5",  # ringgit, a room: no delete
    "把任务5标记为完成哈哈", "把任务5改名为Launch plan 哈哈",  # laughter: maybe a joke
    "new task: not sure yet", "new task: none", "new task: what should I name it",  # no title begins so
    # A Chinese title holds no question or hedge; 标 sets a status only; the title's own field is marked, not given.
    "新建任务，标题是啥来着", "新建任务，叫哪个好", "新建任务叫啥来着", "新建一个任务，就叫随便吧",
    "任务5的标题标点有问题", "任务5的名字改至少五个字", "任务5的标题标成红色", "任务5的标题调整至20字以内",
    "leave task 5 up to nobody", "change the name of task 5 up to marketing",
    # A place the task goes ends its title (it was "Release notes 到这个项目里").
    "add 个任务 Release notes 到这个项目里",
])
def test_no_request_is_read_where_the_message_does_not_plainly_ask_for_it(message: str) -> None:
    reading = read(message)
    assert reading.mood != "request", reading
    assert "due_date" not in reading.slots or reading.mood is None, reading


@pytest.mark.parametrize("message", ["delete task 5, i mean it", "删除任务5，是这个"])
def test_a_correction_takes_back_only_for_a_task_named_by_its_number(message: str) -> None:
    reading = read(message)
    assert reading.slots.get("task_id") == 5, reading  # not the page's task


@pytest.mark.parametrize("message", ["delete task 5, actually keep task 6", "delete task 5. oops, task 6 must stay",
                                     "assign task 5 to carol, no, not task 6", "mark task 5 done and wait for task 6",
                                     "把任务5标记为完成，应该是任务6先做"])
def test_a_correction_word_that_leads_elsewhere_moves_nothing(message: str) -> None:
    assert read(message).change is None


def test_any_task_is_still_read_in_a_negation() -> None:
    assert read("don't delete any task").mood == "negated"


@pytest.mark.parametrize(("message", "slots", "unusable"), [
    ("my tasks assigned to carol", {"assignee_me": True}, "assigned to carol"),
    ("show carol's unassigned tasks", {"assignee": "carol"}, "unassigned"),
    ("what about task 5 and task 6", {"task_id": 5}, "task 6"),
    ("tasks in Apollo and in Zeus", {"project_name": "Apollo"}, "in Zeus"),
    ("overdue done tasks", {"preset": "overdue"}, "done"),
])
def test_a_second_filter_of_one_kind_is_named_not_dropped(message: str, slots: dict[str, Any],
                                                           unusable: str) -> None:
    reading = read(message)
    assert reading.capability == "query" and slots.items() <= reading.slots.items(), reading
    assert unusable in reading.unusable, reading


@pytest.mark.parametrize(("message", "slots"), [
    ("高明负责的任务", {"assignee": "高明"}),  # a name, not "高" (high priority) and "明"
    ("show tasks in Apollo - blocked", {"project_name": "Apollo", "status_filter": ["blocked"]}),
    ("show me everything that's blocked", {"status_filter": ["blocked"]}),  # "that's" is no one's
    ("Is anything overdue for alice?", {"assignee": "alice", "preset": "overdue"}),
])
def test_each_filter_is_read_with_the_value_written_and_no_other(message: str, slots: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.capability == "query" and not reading.unusable, reading
    assert {k: v for k, v in reading.slots.items() if v not in (None, [], False)} == slots


@pytest.mark.parametrize("message", ["show tasks due 2026-02-29", "set task 5 due to 2027-02-30", "tasks 0000-00-00"])
def test_a_date_that_names_no_day_is_never_read_and_never_raises(message: str) -> None:
    reading = read(message)
    assert "due_date" not in reading.slots and "due_before" not in reading.slots, reading


@pytest.mark.parametrize(("message", "slots"), [("blocked 的任务 list 一下", {"status_filter": ["blocked"]}),
                                                ("unassigned 的任务有哪些", {"unassigned": True})])
def test_a_word_of_the_grammar_before_的任务_is_no_one(message: str, slots: dict[str, Any]) -> None:
    reading = read(message)
    assert {k: v for k, v in reading.slots.items() if v not in (None, [], False)} == slots, reading


@pytest.mark.parametrize("message", ["mark task 5 as not done", "delete the due date of task 5", "删除任务5的截止日期",
                                     "delete task 5's subtasks", "did you delete task 5?", "was task 5 deleted"])
def test_no_change_is_offered_that_the_message_does_not_name(message: str) -> None:
    """Not "done" after "not", not the task's delete for one of its fields, not a change asked about."""
    reading = read(message)
    assert reading.change is None or reading.change.operation not in ("delete", "update"), reading


@pytest.mark.parametrize("message", ["任务5别删", "任务5不用删除", "never mind deleting task 5",
                                     "delete task 5, just kidding", "把任务5删了，开玩笑的",
                                     "delete task 5 -- scratch that"])
def test_a_negation_after_the_task_or_a_request_taken_back_is_declined(message: str) -> None:
    reading = read(message)
    assert reading.mood == "negated" and reading.slots.get("task_id") == 5, reading


@pytest.mark.parametrize("message", ["把任务5删了算了", "把任务5删了，不用了"])
def test_a_word_that_may_also_ask_is_no_retraction(message: str) -> None:
    assert read(message).mood != "negated"


@pytest.mark.parametrize("words", ["friday the 11th", "tuesday the 8th", "7 friday", "12 by friday", "3 days",
                                   "2 weeks", "2026.13.01"])
def test_a_date_dateparser_would_misread_is_not_read(words: str) -> None:
    assert read_date(words) is None


def test_todays_month_and_day_is_today_not_a_year_on() -> None:
    today = timezone.localdate()
    assert read_date(today.strftime("%b %d").replace(" 0", " ")) == today


@pytest.mark.parametrize(("message", "title"), [("create a task called Sprint 12 by friday", "Sprint 12"),
                                                ("create a task called Fix login bug and assign it to me",
                                                 "Fix login bug"),
                                                ("create a task called Research and Development",
                                                 "Research and Development")])
def test_a_title_keeps_its_number_and_ends_before_a_second_instruction(message: str, title: str) -> None:
    assert read(message).slots.get("title") == title


@pytest.mark.parametrize("message", ["mark task 5 done by friday", "postpone task 5 3 days", "delete covid-19",
                                     "close sprint-12", "mark task 5 as not blocked", "把任务5标记为未完成",
                                     "delete task 5 and forget it"])
def test_none_of_these_is_a_write_at_once_or_a_declined_request(message: str) -> None:
    reading = read(message)
    assert reading.mood not in ("request", "negated"), reading
    assert reading.slots.get("status") != "blocked" and reading.slots.get("task_id") not in (19, 12), reading


@pytest.mark.parametrize("message", ["find me the overdue tasks", "get me all P0 tasks"])
def test_me_after_a_verb_of_asking_is_not_mine(message: str) -> None:
    reading = read(message)
    assert reading.capability == "query" and not reading.slots.get("assignee_me"), reading
    assert reading.slots.get("preset") != "my_overdue"


@pytest.mark.parametrize("message", ["show tasks due before 9999-12-31", "tasks due after Dec 31, 9999",
                                     "show tasks due before 0001-01-01", "9999年底前到期的任务"])
def test_a_range_at_the_calendars_end_never_raises(message: str) -> None:
    read(message)


def test_a_message_of_two_thousand_courtesy_words_is_no_request() -> None:
    assert read("请" * 2000).mood is None and read("please " * 285).mood is None


@pytest.mark.parametrize("message", [
    # No title at all: words that name none, or the word that leads to one.
    "create a new task", "add another task", "start the next task", "open the first task", "create a task called ASAP",
    "add a task for bob", "create a task for Monday", "add a task for me",
    # A title that may or may not hold the word after it, or end on one that may be the request's.
    "create a task called Ship it asap", "rename task 5 to Plan launch now", "rename task 5 to Hire also",
    "create a task called Upgrade to Python 3.12",
    # Cut off: the message goes on.
    "mark task 5 done and", "set task 5 to P1, then", "把任务5标记为完成然后",
    # Days that could be two: order, versions, "next", times, a day just gone.
    "set task 5 due 3/4", "move task 5 to 1.5", "set task 5 due next Wednesday", "set task 5 due 5pm",
    "set task 5 due 1/2/2027",
    # Ordering, not a priority.
    "move task 5 to top", "put task 5 on top",
])
def test_a_change_with_a_part_that_reads_two_ways_is_not_read_whole(message: str) -> None:
    reading = read(message)
    assert reading.mood != "request", reading


@pytest.mark.parametrize(("message", "title"), [("create a task called Cyber Monday", "Cyber Monday"),
                                              ("新建任务叫系统最高", "系统最高")])
def test_a_value_right_after_a_title_is_the_titles_last_word(message: str, title: str) -> None:
    reading = read(message)  # with no word that leads to a due date or a priority, none is taken off it
    assert reading.slots.get("title") == title and not reading.slots.get("due_date") \
        and not reading.slots.get("priority"), reading


@pytest.mark.parametrize(("words", "day"), [("12/31", (12, 31)), ("2/2", (2, 2)), ("1/15", (1, 15)),
                                            ("Jan 20", (1, 20))])
def test_a_day_in_figures_that_reads_one_way_is_read(words: str, day: tuple[int, int]) -> None:
    found = read_date(words)
    assert found is not None and (found.month, found.day) == day


@pytest.mark.parametrize("message", ["create a task called Fix login bug", "add a to-do for Release notes",
                                     "rename task 5 to Launch plan please", "set task 5 due 12/31",
                                     # a value's word inside a title is the title's
                                     "create a task called Fix high CPU usage",
                                     "create a task called Step by step guide",
                                     "create a task called Fix done button", "新建任务叫提高性能"])
def test_the_plain_forms_beside_them_are_still_read_whole(message: str) -> None:
    assert read(message).mood == "request", read(message)


@pytest.mark.parametrize("message", [
    # A title holding what may be a value: the title's words, or the request's?
    "create a task Budget review due the 20th", "add a task Kickoff assigned to dave", "create a task called Demo P2",
    "rename task 5 to Retro tomorrow", "创建任务 写周报 周五截止",
    # "urgent" may be a priority: it is no courtesy word.
    "add a task called Fix search - urgent", "mark task 5 done, urgent",
])
def test_a_title_or_closer_that_may_hold_a_value_is_not_read_whole(message: str) -> None:
    assert read(message).mood != "request", read(message)


@pytest.mark.parametrize(("message", "unread"), [
    ("tomorrow's P1 tasks", "tomorrow's"), ("tasks in apollo except blocked", "except"), ("tasks for them", "for them"),
    ("tasks in november", "november"),
])
def test_a_word_that_names_no_one_or_no_project_is_named(message: str, unread: str) -> None:
    reading = read(message)
    assert reading.capability == "clarify" and unread in reading.unusable, reading


@pytest.mark.parametrize(("message", "slots"), [
    ("show Mark's blocked tasks", {"assignee": "Mark"}),  # a name that is also a word of the grammar's
    ("P1 tasks for dave please", {"assignee": "dave"}),
    ("下下周到期的任务", {"due_after": None}),  # not next week: 下下周 is unread, never read as 下周
])
def test_names_and_weeks_are_read_as_written(message: str, slots: dict[str, Any]) -> None:
    reading = read(message)
    if slots.get("due_after", "") is None:
        assert reading.capability == "clarify", reading
    else:
        assert {k: reading.slots.get(k) for k in slots} == slots, reading


@pytest.mark.parametrize("message", ["tasks completed this week", "tasks closed this month"])
def test_this_week_is_no_task(message: str) -> None:
    """"this" naming a week or a month is no task: a question about tasks is not offered as a change to one."""
    assert read(message).change is None, read(message)


@pytest.mark.parametrize("message", ["add a task for bob", "create a task for Monday"])
def test_a_task_for_someone_or_some_day_offers_no_title(message: str) -> None:
    """Neither read whole nor pieced together: "bob" and "Monday" are whom and when, never a new task's title."""
    assert read(message).change is None, read(message)


# A sixth review: an unquoted title never runs into a remark of the user's (a take-back, a hedge, someone
# else's word, a question tag, "later", another request or place); the title ends before it, the rest is
# unread, and the change is offered on a card with the title before the remark.
@pytest.mark.parametrize(("message", "title"), [
    ("rename this task to Launch plan forget it", "Launch plan"),
    ("rename task 5 to Quarterly review maybe", "Quarterly review"),
    ("create a task called Draft the memo as bob suggested", "Draft the memo"),
    ("create a task called Update deps later", "Update deps"),
    ("create a task called Write docs and another called Write tests", "Write docs"),
    ("create a task called Write docs in Mobile App", "Write docs"),
    ("把任务5改名为季度复盘还是年度复盘", "季度复盘"),
    ("创建任务整理周报当我没说", "整理周报"),
    ("把任务5改名为季度复盘是不是更好", "季度复盘"),
])
def test_a_title_ends_before_a_remark_and_is_offered_on_a_card(message: str, title: str) -> None:
    reading = read(message)
    assert reading.mood == "unread" and reading.slots.get("title") == title, reading


@pytest.mark.parametrize(("message", "title"), [
    ("create a task called Research and Development", "Research and Development"),
    ("创建任务整理周报嘞", "整理周报"),  # a sentence particle closes the request, it is no part of the title
    ("把任务5改名为季度复盘啊", "季度复盘"),
    ("新建任务，标题是整理周报", "整理周报"),  # the label after the comma leads to the title, it is none of it
])
def test_a_title_with_no_remark_is_still_read_whole(message: str, title: str) -> None:
    reading = read(message)
    assert reading.mood == "request" and reading.slots.get("title") == title, reading


@pytest.mark.parametrize("message", ["rename task 5 to “ ”", "把任务5改名为“”", "create a docs task"])
def test_no_empty_title_no_article_as_a_title_and_no_label_inside_one(message: str) -> None:
    reading = read(message)
    assert reading.mood != "request", reading
    assert reading.slots.get("title") not in ("", " ", "a docs", "标题是整理周报"), reading


def test_this_weeks_sunday_in_chinese_is_this_weeks_and_a_day_gone_reads_two_ways() -> None:
    today = timezone.localdate()
    sunday = today + timedelta(days=6 - today.weekday())
    assert read_date("本周日") == sunday == read_date("这周天")
    if today.weekday() > 0:
        assert read_date("本周一") is None


@pytest.mark.parametrize("words", ["in 1.5 weeks", "in 1.5", "in 1"])
def test_a_fraction_of_a_week_or_a_number_alone_is_no_day(words: str) -> None:
    assert read_date(words) is None


def test_a_fraction_of_a_week_is_not_read_from_its_whole_number() -> None:
    reading = read("set due date of task 5 to in 1.5 weeks")
    assert reading.mood != "request" and "due_date" not in reading.slots, reading


@pytest.mark.parametrize("message", ["~~mark this task done~~", "assign this task to them", "assign it to him",
                                     "assign task 5 to friday"])
def test_struck_out_words_and_a_word_that_names_no_one_are_no_request(message: str) -> None:
    reading = read(message)
    assert reading.mood != "request" and reading.slots.get("assignee") in (None, "me"), reading


@pytest.mark.parametrize("message", ["remove the label from this task", "remove this task from the sprint",
                                     "把这个任务从冲刺里移除", "this task is no longer blocked",
                                     "set this task to anything but P0"])
def test_no_card_states_a_change_the_message_does_not_name(message: str) -> None:
    """A part of a task removed, a task taken out of a list, a value denied: no delete or value is offered."""
    reading = read(message)
    assert reading.slots.get("operation") != "delete" and not reading.slots.get("status") \
        and not reading.slots.get("priority"), reading


def test_a_weekday_with_its_day_is_read_when_they_agree() -> None:
    day = timezone.localdate() + timedelta(days=10)
    other = (day + timedelta(days=1)).strftime("%A")
    assert read_date(f"{day:%A} {day:%b} {day.day}") == day == read_date(f"{day:%a}, {day.day} {day:%B}")
    assert read_date(f"{other} {day:%b} {day.day}") is None  # the two disagree: which day?
    monday = timezone.localdate() - timedelta(days=timezone.localdate().weekday())
    assert read_date("Friday next week") == monday + timedelta(days=11)


# A seventh review: a title side by side with a remark in Chinese, courtesy ending one, someone named after
# "for", a chat aside; and a day after "by" that follows a value is when to do it, not a due date to set.
@pytest.mark.parametrize("message", ["新建任务 写Q1规划 春节前", "把这个任务改名为官网改版 alice负责",
                                     "rename this task to Pricing page v2 no rush",
                                     "create task Fix login bug for carol",
                                     "create task Draft Q1 roadmap btw", "create task Draft Q1 roadmap by EOW",
                                     "把这个任务改名为官网改版 据说"])
def test_a_title_beside_a_remark_is_offered_not_written(message: str) -> None:
    reading = read(message)
    assert reading.mood == "unread", reading


@pytest.mark.parametrize("message", ["bump this task to P0 by Monday", "set task 5 to P1 by Friday"])
def test_by_a_day_after_a_value_sets_no_due_date(message: str) -> None:
    reading = read(message)
    assert reading.mood == "unread" and reading.slots.get("priority") and "due_date" not in reading.slots, reading


@pytest.mark.parametrize(("message", "slots"), [
    ("open items for carol, please", {"assignee": "carol"}),
    ("open tasks in Website Redesign not assigned to me", {"project_name": "Website Redesign"}),
])
def test_a_person_before_courtesy_and_not_assigned_to_me(message: str, slots: dict[str, Any]) -> None:
    reading = read(message)
    assert reading.capability == "query" and slots.items() <= reading.slots.items(), reading
    assert "unassigned" not in reading.slots, reading


@pytest.mark.parametrize("message", ["carol在等的任务", "alice分配给bob的任务", "我分配给bob的任务",
                                     "tasks in Website Redesign or Mobile App"])
def test_what_a_question_cannot_express_is_named_not_read_as_another_filter(message: str) -> None:
    reading = read(message)
    assert reading.unusable and reading.slots.get("assignee") != "alice" and not reading.slots.get("assignee_me") \
        and reading.slots.get("project_name") not in ("等", "Website Redesign or Mobile App"), reading


@pytest.mark.parametrize("message", ["set this task due Friday, sorry I meant Monday",
                                     "assign this task to bob, no, carol",
                                     "把这个任务改成P0，不，P1", "把这个任务分配给bob 不对 是carol",
                                     "Close this task. Actually, set it to blocked instead."])
def test_a_value_taken_back_is_asked_about_not_offered_with_the_first(message: str) -> None:
    """A correction of the task moves the change to the task meant; a correction of the value leaves no card that
    states the value taken back: the reader asks."""
    assert read_write(message) is None, read_write(message)


def test_a_task_taken_back_still_moves_the_change() -> None:
    reading = read_write("mark task 5 done, no wait, task 6")
    assert reading is not None and reading.change.target.task_id == 6 and reading.change.taken_back == 5


@pytest.mark.parametrize("message", ["don't make this task P0, make it P1", "不要把任务5删了，把它标记为完成"])
def test_a_change_denied_is_not_the_one_offered(message: str) -> None:
    reading = read_write(message)
    assert reading is None or reading.change.operation != "delete" and reading.change.values != (("priority", "P0"),)


@pytest.mark.parametrize("message", ["close all tasks except this one", "除了这个任务，其他都标记完成",
                                     "move this task to Mobile App", "assign this task to carol's backup"])
def test_every_task_but_one_or_a_project_as_a_person_is_asked_about(message: str) -> None:
    assert read_write(message) is None, read_write(message)


@pytest.mark.parametrize(("message", "whole"), [("create task Draft Q1 roadmap by Christmas", False),
                                                ("rename this task to Pricing page v2 alice's request", False),
                                                ("create a task called Step by step guide", True)])
def test_by_and_someones_word_inside_a_title(message: str, whole: bool) -> None:
    assert (read(message).mood == "request") is whole, read(message)


@pytest.mark.parametrize("message", [
    # Words of their own, no slips for 移除, 删除, 交给.
    "任务5的艺术风格不错", "这些杉树很高", "我教给carol任务5的做法",
    "QA found bugs, assign task 5 to her", "Hi Bob, assign task 5 to her", "Honestly, assign task 5 to him",
    "carol is free, assign task 5 to her lead", "carol这周比较闲，把任务5分配给她的团队",  # someone else's
    "carol is free, assign task 5 to her, no wait, to bob",  # a value taken back: asked
    "task 5 is mine",
])
def test_no_change_is_offered_for_a_word_of_its_own_or_someone_a_pronoun_does_not_name(message: str) -> None:
    reading = read_write(message)
    assert reading is None or reading.mood in ("negated", "question"), reading

