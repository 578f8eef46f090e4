"""The words of a question to see tasks (reads.py, due.py): what it may hold besides its filters' values.

Declared here and combined into the reader's one lexicon (lexicon.py) as ``read.*`` and ``range.*``.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# What a question to see tasks may hold besides its filters' values (reads.py).
READS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "in": ("in", "for", "within", "inside", "under", "在"),
    "project": ("project", "the project", "the", "项目", "项目里", "项目中", "项目内", "项目的", "项目里面", "里",
                "中", "内", "里面", "当中"),
    # The user's projects as a whole, which a query reads anyway: "across all my projects" is no project's name.
    "everywhere": ("across all my projects", "across my projects", "in all my projects", "in all of my projects",
                   "across all projects", "in all projects", "in any project", "in every project",
                   "across every project", "所有项目", "所有项目里", "所有项目中", "全部项目", "全部项目里",
                   "各个项目"),
    "overdue": ("overdue", "late", "past due", "past their due date", "behind schedule", "逾期", "过期", "超期",
                "到期未完成", "逾期的", "过期的", "过了截止日期", "已过截止日期", "超过截止日期", "past the due date",
                "past their deadline", "past the deadline"),
    "open": ("open", "unfinished", "not done", "incomplete", "outstanding", "pending", "remaining", "未完成",
             "没完成", "没做完", "not finished", "not completed", "not yet done", "aren't done", "aren't finished",
             "isn't done", "isn't finished", "haven't been finished", "haven't been done", "没有完成", "尚未完成",
             "没有做完"),
    "here": ("here", "this project", "in this project", "in the project", "这个项目", "本项目", "该项目", "此项目",
             "当前项目", "这里", "这个项目里", "这个项目中"),
    "mine": ("my", "mine", "me", "for me", "assigned to me", "i have", "do i have", "have i got", "i own",
             "on my plate", "我有", "我的", "给我的", "分配给我的",
             "我负责的", "我", "我手上", "我手上的", "我手上有", "我手里", "我手里的", "我名下", "我名下的"),
    "assigned": ("assigned to", "owned by", "assigned", "belonging to", "分配给", "指派给", "负责人是", "负责人为",
                 "owner is", "assignee is", "with owner", "owner是", "assignee是", "owner为"),
    # After a person: "carol负责的", "小王手上的", "carol的任务".
    "owned_zh": ("负责的", "手上的", "手里的", "名下的", "手上有", "手里有", "手上", "手里", "名下"),
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
                   "未分配的", "未分配", "没分配的", "没有分配的", "没有分配", "没人认领的",
                   "unowned", "without an owner", "without owner", "nobody is assigned to", "no one is assigned to",
                   "that nobody is assigned to", "nobody has picked up", "no one has picked up",
                   "that nobody has picked up", "没人认领", "没人接", "没有分配负责人", "没分配负责人", "没有指派人",
                   "没有指派", "没有owner", "没人assign", "没有分配给任何人", "没分配给任何人"),
    "known": ("are", "is", "the", "any", "all", "that", "with", "have", "has", "do", "does", "i", "we", "there",
              "of", "to", "a", "an", "some", "currently", "still", "yet", "everything", "at", "about", "describe",
              "details", "detail", "tell me about", "status of", "what about", "summary of", "info on", "on",
              "right now", "in", "which are", "that are", "left", "now", "does it say",
              "有", "的", "吗", "了", "都", "里", "中", "是", "目前", "现在", "还", "一共", "共", "所有", "全部",
              "关于", "介绍", "详情", "情况", "怎么样", "讲什么", "说说", "是什么", "呢", "吧", "一下", "进展",
              "进度", "状态", "怎么样了", "是关于什么的",
              # A filter's field named before its value ("with status To Do", "状态是待办", "处于待办状态"), and
              # the words that join two filters ("blocked and overdue", "卡住了而且已经逾期").
              "status", "with status", "with a status of", "status is", "状态是", "状态为", "处于", "been", "已经",
              "priority is", "with priority", "优先级是", "优先级为",
              "而且", "并且", "且", "但", "但是", "和", "及", "以及", "跟", "quick question", "quick one", "里面",
              "当中"),
    # Between two values of one filter: "blocked or in progress", "P0 或 P1" (both listed).
    "or": ("or", "either", "或者", "或", "或是"),
})
# Due ranges a question may ask for (due.py): a named range, or a bound and a day.
DUE_RANGES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "today": ("today", "今天", "今日"), "tomorrow": ("tomorrow", "明天", "明日"),
    "this_week": ("this week", "by the end of the week", "by end of week", "本周", "这周", "这一周", "这个星期",
                  "本星期"),
    "next_week": ("next week", "下周", "下一周", "下个星期", "下星期"),
    "this_month": ("this month", "本月", "这个月"),
    "soon": ("soon", "in the next 7 days", "within a week", "in the coming week", "最近", "近期", "快要", "即将", "快",
             "马上"),
})
RANGE: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "due": ("due", "that are due", "which are due", "due date", "with a due date", "due in"),
    "before": ("before", "earlier than", "prior to"),
    "by": ("by", "until", "till", "no later than", "on or before", "by end of", "by the end of"),
    "after": ("after", "later than"),
    "on": ("on",),
    "zh_due": ("到期", "截止", "到期的", "截止的", "要到期", "将到期", "due", "due 的"),
    "between": ("between", "from"),
    "and": ("and", "to", "through", "until"),
    "zh_by": ("前", "之前", "以前"),
    "zh_after": ("后", "之后", "以后"),
})
