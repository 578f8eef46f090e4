"""Words in each language, declared once per place (agent.words.language.in_each_language): a table whose
languages name different keys or fill different fields is refused where it is declared, and the sidebar's
error sentences, the model-unavailable answer and the single-task brief follow the message's language."""
from __future__ import annotations

from typing import Any

import pytest

from agent.capabilities.common.task_brief import brief_words
from agent.graph.route import TEXTS as ROUTE_TEXTS
from agent.words.errors import error_words
from agent.words.language import in_each_language
from agent.words.sidebar import WORDS


def test_a_table_of_words_names_the_same_keys_and_fields_in_each_language() -> None:
    assert in_each_language(en={"hi": "Hello {name}"}, zh={"hi": "你好 {name}"})["zh"] == {"hi": "你好 {name}"}
    with pytest.raises(ValueError, match="keys"):
        in_each_language(en={"hi": "Hello", "bye": "Bye"}, zh={"hi": "你好"})
    with pytest.raises(ValueError, match="fill"):
        in_each_language(en={"hi": "Hello {name}"}, zh={"hi": "你好 {who}"})
    with pytest.raises(ValueError, match="expected"):
        in_each_language(en={"hi": "Hello"})


def test_the_sidebar_words_are_chinese_for_chinese_and_english_for_english() -> None:
    assert WORDS["en"]["delete_title"] == "Delete this task?" and WORDS["zh"]["delete_title"] == "删除这个任务？"
    assert WORDS["zh"]["run_some"].format(kept=2, all=3, steps=WORDS["zh"]["step_many"]) == "批准并运行 2/3 个步骤"
    assert WORDS["en"]["run_some"].format(kept=2, all=3, steps=WORDS["en"]["step_many"]) == \
        "Approve and run 2 of 3 steps"


@pytest.mark.parametrize(("error", "english", "chinese", "stale"), [
    ({"message": "task 7 is not visible to you"}, "That task no longer exists", "这个任务已不存在", True),
    ({"message": "project 3 is not visible to you"}, "That project is no longer available", "无法访问这个项目", True),
    ({"message": "message: control characters"}, "invisible control character", "控制字符", False),
    ({"message": "message: at most 2000 characters", "fields": {"message": ["too long"]}},
     "keep it under 2000 characters", "控制在 2000 个字符以内", False),
    ({"message": "message: blank", "fields": {"message": ["blank"]}}, "Type a message", "请输入消息", False),
    ({"message": "action: unknown", "fields": {"action": ["unknown"]}}, "That button does not work", "这个按钮", False),
    ({"message": "no", "code": "forbidden"}, "You are not allowed", "你无权", False),
    ({"message": "decided", "code": "conflict"}, "That was already decided", "已经决定过了", False),
    ({"message": "page_context: bad", "fields": {"page_context": ["bad"]}}, "The page sent something",
     "页面发送了", False),
])
def test_an_error_is_said_in_the_language_of_the_message(error: dict[str, Any], english: str, chinese: str,
                                                          stale: bool) -> None:
    words, refresh = error_words(error)
    assert english in words and refresh is stale
    words, refresh = error_words(error, "zh")
    assert chinese in words and refresh is stale
    assert not any("a" <= ch <= "z" for ch in words.replace("before", "").replace("id", "")), words


def test_the_model_unavailable_answer_keeps_the_reason_in_either_language() -> None:
    why = "The model is unavailable right now."
    assert ROUTE_TEXTS["en"]["unavailable"].format(why=why).startswith(why)
    chinese = ROUTE_TEXTS["zh"]["unavailable"].format(why=why)
    assert chinese.startswith("模型暂时不可用，什么都没有改。") and why in chinese


def test_the_single_task_brief_in_chinese_names_the_same_facts() -> None:
    row = {"key": "WEB-3", "title": "Fix login", "status": "in_progress", "priority": "P1", "due_date": "2020-01-02",
           "assignee": "Alice", "project": "Website Redesign"}
    assert brief_words(row, 2) == ("WEB-3 “Fix login” in Website Redesign: in progress, P1, due Jan 2, 2020 "
                                   "(overdue), assigned to Alice. It has 2 subtasks.")
    assert brief_words(row, 2, "zh") == ("WEB-3 “Fix login”（Website Redesign）：进行中，P1，"
                                         "截止 Jan 2, 2020（已逾期），负责人 Alice。它有 2 个子任务。")
    assert brief_words({**row, "assignee": None, "due_date": None}, 0, "zh") == \
        "WEB-3 “Fix login”（Website Redesign）：进行中，P1，未分配。"
