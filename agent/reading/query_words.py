"""The words of a question to see tasks (reads.py, due.py): what it may hold besides its filters' values.

Declared here and combined into the reader's one lexicon (lexicon.py) as ``read.*`` and ``range.*``.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# What a question to see tasks may hold besides its filters' values (reads.py).
READS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "in": ("in", "for", "within", "inside", "under", "在"),
    "project": ("project", "the project", "the", "项目", "项目里", "项目中", "项目内", "项目的", "里", "中", "内"),
    "overdue": ("overdue", "late", "past due", "past their due date", "behind schedule", "逾期", "过期", "超期",
                "到期未完成", "逾期的", "过期的"),
    "open": ("open", "unfinished", "not done", "incomplete", "outstanding", "pending", "remaining", "未完成",
             "没完成", "没做完"),
    "here": ("here", "this project", "in this project", "in the project", "这个项目", "本项目", "该项目", "此项目",
             "当前项目", "这里", "这个项目里", "这个项目中"),
    "mine": ("my", "mine", "me", "for me", "assigned to me", "i have", "do i have", "have i got", "i own",
             "on my plate", "我有", "我的", "给我的", "分配给我的",
             "我负责的", "我"),
    "assigned": ("assigned to", "owned by", "assigned", "belonging to", "分配给", "指派给", "负责人是"),
    # After a person: "carol负责的", "小王手上的", "carol的任务".
    "owned_zh": ("负责的", "手上的", "手里的", "名下的", "手上有", "手里有"),
    "tasks_of_zh": ("的任务",),
    # Words before 负责的 / 手上的 that name no one person: never taken for a name.
    "nobody_zh": ("们", "人", "谁", "大家", "团队", "别人", "其他人", "每个人", "所有人", "咱们", "他们", "她们",
                  "你们", "各位", "哪些人", "哪个人"),
    "this_task": ("this task", "the selected task", "this one", "这个任务", "该任务", "此任务", "当前任务", "这项任务"),
    "week": ("this week", "last week", "next week", "本周", "这周", "这一周", "上周", "上一周", "下周"),
    "unassigned": ("unassigned", "not assigned", "not assigned to anyone", "assigned to nobody", "assigned to no one",
                   "assigned to no-one", "without an assignee", "with no assignee", "without assignee",
                   "that nobody owns", "nobody's", "no one's", "nobody owns", "no owner", "with no owner",
                   "没人负责的", "没人负责", "没有人负责的", "没有负责人的", "没有负责人", "无人负责的", "无人负责",
                   "未分配的", "未分配", "没分配的", "没有分配的", "没有分配", "没人认领的"),
    "known": ("are", "is", "the", "any", "all", "that", "with", "have", "has", "do", "does", "i", "we", "there",
              "of", "to", "a", "an", "some", "currently", "still", "yet", "everything", "at", "about", "describe",
              "details", "detail", "tell me about", "status of", "what about", "summary of", "info on", "on",
              "right now", "in", "which are", "that are", "left", "now", "does it say",
              "有", "的", "吗", "了", "都", "里", "中", "是", "目前", "现在", "还", "一共", "共", "所有", "全部", "个",
              "关于", "介绍", "详情", "情况", "怎么样", "讲什么", "说说", "是什么", "呢", "吧", "下", "一下", "进展",
              "进度", "状态", "怎么样了", "是关于什么的"),
})
# Due ranges a question may ask for (due.py): a named range, or a bound and a day.
DUE_RANGES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "today": ("today", "今天", "今日"), "tomorrow": ("tomorrow", "明天", "明日"),
    "this_week": ("this week", "by the end of the week", "by end of week", "本周", "这周", "这一周", "这个星期",
                  "本星期"),
    "next_week": ("next week", "下周", "下一周", "下个星期", "下星期"),
    "this_month": ("this month", "本月", "这个月"),
    "soon": ("soon", "in the next 7 days", "within a week", "in the coming week", "最近", "近期", "快要"),
})
RANGE: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "due": ("due", "that are due", "which are due", "due date", "with a due date"),
    "before": ("before", "earlier than", "prior to"),
    "by": ("by", "until", "till", "no later than", "on or before", "by end of", "by the end of"),
    "after": ("after", "later than"),
    "on": ("on",),
    "zh_due": ("到期", "截止", "到期的", "截止的"),
    "zh_by": ("前", "之前", "以前"),
    "zh_after": ("后", "之后", "以后"),
})
