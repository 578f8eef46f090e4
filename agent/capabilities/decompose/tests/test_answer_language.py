"""The breakdown in the language of the request: each step, the question and what happened after the
decision say Chinese words for a Chinese message, around the same titles, dates, priorities and people."""
from __future__ import annotations

from typing import Any

from agent.capabilities.decompose.plan import PlanStep
from agent.capabilities.decompose.report import finish_outcome
from agent.capabilities.decompose.words import step_words
from agent.models import Run

from .helpers import bind, break_down, change, confirm, create

NAMES = {"carol": "Carol Chen"}


def _step(data: dict[str, Any]) -> PlanStep:
    return PlanStep.model_validate(data)


def test_each_step_in_chinese_names_the_same_title_date_priority_and_person() -> None:
    made = _step(create("s1", "Write the draft", due="2026-12-10", priority="P1", assignee="carol"))
    assert step_words(made, NAMES) == ("Create subtask “Write the draft” under the selected task, due December 10, "
                                       "2026, priority P1, assigned to Carol Chen")
    assert step_words(made, NAMES, "zh") == ("在所选任务下创建子任务 “Write the draft”，截止 2026年12月10日，"
                                             "优先级 P1，分配给 Carol Chen")
    later = bind("s1")
    assert step_words(_step(change("s2", "set_due_date", task=later, due_date="2026-12-11")), NAMES, "zh") == \
        "把步骤 s1 创建的子任务的截止日期设为 2026年12月11日"
    assert step_words(_step(change("s3", "assign", assignee="carol")), NAMES, "zh") == "把所选任务分配给 Carol Chen"
    assert step_words(_step(change("s4", "set_priority", priority="P0")), NAMES, "zh") == "把所选任务的优先级设为 P0"


def test_the_end_of_a_chinese_breakdown_is_said_in_chinese() -> None:
    log = [{"step": "s1", "tool": "create_subtask", "words": "w1", "status": "done", "result": {"title": "A"}},
           {"step": "s2", "tool": "create_subtask", "words": "w2", "status": "done", "result": {"title": "B"}},
           {"step": "s3", "tool": "assign", "words": "把所选任务分配给 Carol", "status": "failed", "code": "forbidden",
            "reason": "not a member"}]
    outcome = finish_outcome(log, planner="offline", asked=0, language="zh")
    assert outcome["reply"] == ("已完成 2/3 个步骤。已创建 “A”、“B”。"
                                "未完成：把所选任务分配给 Carol（失败：not a member）。计划来自离线规划器。")
    log[2]["said"] = "你能查看 “X”，但不能修改它"
    assert "未完成：把所选任务分配给 Carol（失败：你能查看 “X”，但不能修改它）。" in \
        finish_outcome(log, planner="offline", asked=0, language="zh")["reply"]
    assert finish_outcome(log, planner="offline", asked=0)["reply"].startswith("Done 2 of 3 steps. Created “A”, “B”.")


def test_a_chinese_request_gets_a_chinese_question_card_steps_and_rejection(alice: Any, website: Any) -> None:
    from tasks.services import task_create

    task = task_create(actor=alice, project=website, title="Tidy the wiki",
                       description="Archive the old pages. Merge the two FAQ pages.")
    run = break_down(alice, task, message="把这个任务拆分成子任务")
    assert run["status"] == "needs_confirmation"
    assert run["reply"] == "请审阅计划：为 “Tidy the wiki” 安排 2 个步骤。批准之前不会写入任何内容。"
    steps = [s["words"] for s in run["confirmation"]["facts"]["steps"]]
    assert steps == ["在所选任务下创建子任务 “Archive the old pages”",
                     "在所选任务下创建子任务 “Merge the two FAQ pages”"]
    rejected = confirm(alice, run["run_id"], "reject").json()
    assert rejected["reply"] == "已拒绝计划：没有再做任何修改。"
    assert not task.subtasks.exists() and Run.objects.get(pk=run["run_id"]).status == "done"


def test_why_a_step_did_not_run_is_said_in_chinese(alice: Any, carol: Any, website: Any) -> None:
    from projects.models import Membership
    from tasks.services import task_create

    task = task_create(actor=alice, project=website, title="Tidy the wiki",
                       description="Archive the old pages. Merge the two FAQ pages.")
    run = break_down(carol, task, message="把这个任务拆分成子任务")
    assert run["status"] == "needs_confirmation", run
    Membership.objects.filter(user=carol, project=website).update(role=Membership.Role.VIEWER)
    final = confirm(carol, run["run_id"]).json()
    assert final["status"] == "error", final
    assert final["reply"].count("（失败：你能查看 “Tidy the wiki”，但不能修改它）") == 2, final["reply"]
    assert "failed" not in final["reply"] and "but not change it" not in final["reply"]
    # The trace keeps the English reason.
    assert {s["reason"] for s in final["data"]["steps"]} == {"you can see “Tidy the wiki” but not change it"}
