"""The sidebar's words around an answer, in each language an answer is written in (agent.words.language).

The confirmation and plan cards, the labels of the task rows, the report's figures and the risk list
follow the language of the run's own message (stored with the run, agent.web.run_partial reads it); the
figures, keys, titles and dates inside them come from the server as before. So does the chrome under
an answer: "Next:" and its buttons, Copy, Edit, Retry, details and the feedback buttons. The page's own
chrome (the input, the page's quick buttons) stays English.
"""
from __future__ import annotations

from agent.words.language import in_each_language

WORDS = in_each_language(
    en={
        # What every card says.
        "task": "Task", "status": "Status", "project": "Project", "subtasks": "Subtasks", "none": "none",
        "approve": "Approve", "reject": "Reject",
        "field_title": "title", "field_status": "status",
        "facts_now": "Facts read from the database just now.",
        # The delete card.
        "delete_title": "Delete this task?", "delete_button": "Delete {key}",
        "subtasks_too": "{count} will be deleted too: {titles}",
        "delete_note": "Facts read from the database just now. A delete cannot be undone.",
        # A change the message did not ask for in so many words, and a change of many tasks.
        "write_title": "Make this change?", "change": "Change", "status_now": "Status now",
        "unasked_note": "Your message did not ask for this change in so many words, so it waits for you.",
        "proposed_note": "The assistant proposed this change from the workload, so it waits for you.",
        "bulk_title": "Change {count} tasks to “{status}”?", "and_more": "and {n} more",
        "undo_note": "Facts read from the database just now. You can undo this for {minutes} minutes afterwards.",
        # Undo under an answer that changed tasks.
        "undo": "Undo", "undo_until": "until", "undone_one": "Undone: the previous values of {n} task are back.",
        "undone_many": "Undone: the previous values of {n} tasks are back.",
        "mismatch": "The request said the {field} is “{stated}”, but it is “{actual}”. "
                    "These facts come from the database.",
        # The plan card.
        "plan_title": "Break down “{title}”?", "plan_title_revised": "Revised plan for “{title}”?",
        "assignee": "Assignee", "unassigned": "unassigned", "subtasks_now": "Subtasks now",
        "done_already": "Done already: {steps}.", "needs_step": "needs step {steps}",
        "step_mismatch": "Step {step} expects the {field} “{stated}”, but it is “{actual}”. "
                         "That step will stop; the database decides.",
        "offline_planner": "Plan from the offline planner (no model). ",
        "plan_note": "Facts read from the database just now. Unchecking a step also drops the steps that build "
                     "on it. Nothing is written until you approve.",
        "run_all": "Approve and run {kept} {steps}", "run_some": "Approve and run {kept} of {all} {steps}",
        "step_one": "step", "step_many": "steps",
        # The task rows under an answer.
        "due_on": "due {date}", "overdue": "Overdue", "showing": "Showing {shown} of {count}",
        # The weekly report's figures.
        "figures_of": "Figures of week {week}", "figures_so_far": "Figures of week {week} so far",
        "completed": "Completed", "created": "Created", "blocked": "Blocked",
        "open_report": "Open the full report for {week}",
        "recomputed_one": "Recomputed after later deletions: {n} task was deleted after the week ended "
                          "(the last on {on}).",
        "recomputed_many": "Recomputed after later deletions: {n} tasks were deleted after the week ended "
                           "(the last on {on}).",
        # The risk list and its chart's table.
        "risk_level": "{level} risk", "high": "high", "medium": "medium", "low": "low",
        "factor_points": "+{points} points, from the {sources}", "and": " and ",
        "source_database": "database", "source_server_clock": "server_clock",
        "chart_label": "What makes up each task's risk score, {count} tasks, highest first",
        "chart_caption": "Risk score by task on {today}, highest first, and the points of each factor in it",
        "score": "Score", "level": "Level", "made_of": "Made of",
        "axis": "Risk score (0–100): points from each factor",
        # The chrome under an answer, and the quick actions it offers next.
        "next": "Next:", "follow_ups": "Suggested follow-ups", "copy": "Copy", "copy_more": " the answer",
        "edit": "Edit", "edit_more": " and send again", "retry": "Retry", "retry_more": " this message",
        "retry_action_more": " this quick action", "details": "details",
        "action_my_overdue": "My overdue tasks", "action_risk_analysis": "Tasks at risk",
        "action_weekly_report": "Last week's report", "action_decompose_task": "Break down",
        # Feedback on the answer.
        "feedback_ask": "Was this answer useful?", "helpful": "Helpful", "not_helpful": "Not helpful",
        "feedback_thanks": "Thanks, noted.", "feedback_reason": "What was wrong or missing? (optional)",
        "feedback_send": "Send reason",
    },
    zh={
        "task": "任务", "status": "状态", "project": "项目", "subtasks": "子任务", "none": "无",
        "approve": "批准", "reject": "拒绝",
        "field_title": "标题", "field_status": "状态",
        "facts_now": "以上事实刚从数据库读取。",
        "delete_title": "删除这个任务？", "delete_button": "删除 {key}",
        "subtasks_too": "{count} 个子任务也会被删除：{titles}",
        "delete_note": "以上事实刚从数据库读取。删除后无法撤销。",
        "write_title": "做这个修改？", "change": "修改", "status_now": "当前状态",
        "unasked_note": "你的消息没有明确要求这个修改，所以它在等你决定。",
        "proposed_note": "这是助手根据工作量提出的修改，所以它在等你决定。",
        "bulk_title": "把 {count} 个任务改为“{status}”？", "and_more": "另有 {n} 个",
        "undo_note": "以上事实刚从数据库读取。之后 {minutes} 分钟内可以撤销。",
        "undo": "撤销", "undo_until": "可撤销至", "undone_one": "已撤销：{n} 个任务恢复了之前的值。",
        "undone_many": "已撤销：{n} 个任务恢复了之前的值。",
        "mismatch": "请求中说{field}是“{stated}”，但实际是“{actual}”。这些事实来自数据库。",
        "plan_title": "把“{title}”拆分成子任务？", "plan_title_revised": "“{title}”的修订计划？",
        "assignee": "负责人", "unassigned": "未分配", "subtasks_now": "现有子任务",
        "done_already": "已完成：{steps}。", "needs_step": "依赖步骤 {steps}",
        "step_mismatch": "步骤 {step} 预期{field}为“{stated}”，但实际是“{actual}”。该步骤将停止，以数据库为准。",
        "offline_planner": "计划来自离线规划器（未使用模型）。",
        "plan_note": "以上事实刚从数据库读取。取消勾选一个步骤，也会去掉依赖它的步骤。批准之前不会写入任何内容。",
        "run_all": "批准并运行 {kept} {steps}", "run_some": "批准并运行 {kept}/{all} {steps}",
        "step_one": "个步骤", "step_many": "个步骤",
        "due_on": "截止 {date}", "overdue": "已逾期", "showing": "显示 {count} 个中的 {shown} 个",
        "figures_of": "{week} 周的数字", "figures_so_far": "{week} 周截至目前的数字",
        "completed": "已完成", "created": "新建", "blocked": "受阻",
        "open_report": "打开 {week} 的完整报告",
        "recomputed_one": "已按之后的删除重新计算：这一周结束后删除了 {n} 个任务（最后一次在 {on}）。",
        "recomputed_many": "已按之后的删除重新计算：这一周结束后删除了 {n} 个任务（最后一次在 {on}）。",
        "risk_level": "{level}风险", "high": "高", "medium": "中", "low": "低",
        "factor_points": "+{points} 分，来自{sources}", "and": "和",
        "source_database": "数据库", "source_server_clock": "服务器时钟",
        "chart_label": "每个任务的风险分数由什么构成，共 {count} 个任务，从高到低",
        "chart_caption": "{today} 各任务的风险分数（从高到低）及其中每个因素的分数",
        "score": "分数", "level": "等级", "made_of": "构成",
        "axis": "风险分数（0–100）：各因素的分数",
        "next": "下一步：", "follow_ups": "建议的后续操作", "copy": "复制", "copy_more": "这个回答",
        "edit": "编辑", "edit_more": "并重新发送", "retry": "重试", "retry_more": "这条消息",
        "retry_action_more": "这个快捷操作", "details": "详情",
        "action_my_overdue": "我的逾期任务", "action_risk_analysis": "有风险的任务",
        "action_weekly_report": "上周报告", "action_decompose_task": "拆分任务",
        "feedback_ask": "这个回答有用吗？", "helpful": "有帮助", "not_helpful": "没有帮助",
        "feedback_thanks": "谢谢，已记录。", "feedback_reason": "哪里不对或缺了什么？（可选）",
        "feedback_send": "发送原因",
    },
)
