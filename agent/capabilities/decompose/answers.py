"""The breakdown's words for the user, in each language an answer is written in (agent.words.language): the steps
as the card lists them, the question, and what happened after the decision.

Titles, dates, priorities and people come from the plan and the database; only the words around them differ.
The planner's own prompt stays in English (words.py).
"""
from __future__ import annotations

from agent.words.language import in_each_language

TEXTS = in_each_language(
    en={
        # One step as a sentence.
        "create": "Create subtask {title} under {target}{tail}",
        "set_due_date": "Set the due date of {target} to {day}",
        "assign": "Assign {target} to {name}", "set_priority": "Set the priority of {target} to {priority}",
        "other": "{what} ({target})", "selected": "the selected task", "from_step": "the subtask from step {step}",
        "due": "due {day}", "priority": "priority {priority}", "assigned": "assigned to {name}", "extra": ", {extra}",
        "day": "{day:%B %-d, %Y}",
        # The question and the end of a breakdown.
        "question": "Please review the plan: {count} {steps} for {title}. Nothing is written until you approve.",
        "step_one": "step", "step_many": "steps",
        "rejected": "Plan rejected: nothing more was changed.",
        "changed": "{title} changed since the plan was made, so nothing more was changed. Please ask again.",
        "unchecked": "Every step was unchecked, so nothing was changed.",
        "which_untyped": "Which task should I break down? Select it, or type its number like #42.",
        "which": "Which task should I break down? Open it or select it first.",
        "read_only": "You can see {title} but not change it, so it cannot be broken down.",
        "no_plan": "No plan could be made that keeps the rules, so nothing was changed ({why}).",
        "done_of": "Done {done} of {count} {steps}.", "created": "Created {titles}.", "join": ", ", "between": " ",
        "not_done": "Not done: {words} ({status}: {reason}).", "offline": "The plan came from the offline planner.",
        "dropped_one": "Left out, as you unchecked it: {steps}.",
        "dropped_many": "Left out, as you unchecked them: {steps}.",
        "nothing_more": "Nothing more was changed: {why}",
        "not_found": "I couldn't find that task among your projects, so nothing more was changed.",
        # Why a step did not run (the trace and the alerts keep the English reason).
        "status_failed": "failed", "status_skipped": "skipped",
        "reason_forbidden": "you can see {title} but not change it",
        "reason_mismatch": "the plan expected {field} {stated}, the database has {actual}", "reason_join": "; ",
        "field_title": "title", "field_status": "status",
        "reason_unbound": "the task it acts on could not be found from the earlier steps",
        "reason_skipped": "it builds on step {steps}, which did not run", "steps_join": ", ",
        "reason_refused": "{message}",
    },
    zh={
        "create": "在{target}下创建子任务 {title}{tail}", "set_due_date": "把{target}的截止日期设为 {day}",
        "assign": "把{target}分配给 {name}", "set_priority": "把{target}的优先级设为 {priority}",
        "other": "{what}（{target}）", "selected": "所选任务", "from_step": "步骤 {step} 创建的子任务",
        "due": "截止 {day}", "priority": "优先级 {priority}", "assigned": "分配给 {name}", "extra": "，{extra}",
        "day": "{day:%Y年%-m月%-d日}",
        "question": "请审阅计划：为 {title} 安排 {count} {steps}。批准之前不会写入任何内容。",
        "step_one": "个步骤", "step_many": "个步骤",
        "rejected": "已拒绝计划：没有再做任何修改。",
        "changed": "{title} 在做计划之后有了变化，所以没有再做任何修改。请重新提问。",
        "unchecked": "所有步骤都取消了勾选，所以什么都没有改。",
        "which_untyped": "要拆分哪个任务？请选中它，或输入它的编号，例如 #42。",
        "which": "要拆分哪个任务？请先打开或选中它。",
        "read_only": "你能查看 {title}，但不能修改它，所以不能拆分。",
        "no_plan": "无法做出符合规则的计划，所以什么都没有改（{why}）。",
        "done_of": "已完成 {done}/{count} {steps}。", "created": "已创建 {titles}。", "join": "、", "between": "",
        "not_done": "未完成：{words}（{status}：{reason}）。", "offline": "计划来自离线规划器。",
        "dropped_one": "因你取消了勾选而未运行：{steps}。",
        "dropped_many": "因你取消了勾选而未运行：{steps}。",
        "nothing_more": "没有再做任何修改：{why}",
        "not_found": "在你的项目中找不到这个任务，所以没有再做任何修改。",
        "status_failed": "失败", "status_skipped": "跳过",
        "reason_forbidden": "你能查看 {title}，但不能修改它",
        "reason_mismatch": "计划预期{field}为 {stated}，数据库中是 {actual}", "reason_join": "；",
        "field_title": "标题", "field_status": "状态",
        "reason_unbound": "无法从前面的步骤找到它要操作的任务",
        "reason_skipped": "它依赖的步骤 {steps} 没有运行", "steps_join": "、",
        "reason_refused": "服务器拒绝了这一步（{message}）",
    },
)


def steps_word(count: int, words: dict[str, str]) -> str:
    return words["step_one" if count == 1 else "step_many"]
