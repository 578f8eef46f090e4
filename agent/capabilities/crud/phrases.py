"""crud's words for the deterministic reader: the verbs of each write on a task, in English and Chinese.

Each class is one grammar rule's verb (agent/reading/grammar.py): "mark" takes a task and a status
("mark task 5 as done", "把任务5标记为完成"); "set" a task, optionally its field, and a value ("set
task 5 to P0", "move WEB-5's due date to Friday"); "close" a task it finishes; "delete" and "create"
what they say; "assign" a task and a person; "unassign" a task; "rename" a task and its new title; "tag"
(Chinese "标") a task and a status only; "retitle" the Chinese mark verbs that may give a title a new one.
English verbs are given in their plain form; the reader knows their -ing and past forms.
"""
from __future__ import annotations

from agent.registry import Phrases

# Chinese verbs that set a field to a value, a title included ("改成", "设为"): mark verbs, and retitle ones.
_ZH_RETITLE = ("改为", "改成", "换成", "换为", "设为", "设成", "设置为", "更新为", "变更为", "定为", "定成", "改到",
               "弄成", "搞成", "变成")

PHRASES = Phrases(
    en={"mark": ("mark", "flag", "tag", "set", "move", "put", "change", "switch", "update", "make", "flip", "turn"),
        "set": ("set", "change", "update", "make", "put", "move", "switch", "bump", "raise", "lower", "reschedule",
                "push", "postpone", "defer", "shift", "adjust", "pull", "bring", "drop", "up", "upgrade",
                "downgrade", "escalate", "prioritize", "extend"),
        "close": ("close", "complete", "finish", "resolve", "wrap up", "check off", "tick off", "close out",
                  "finish off", "mark off", "cross off", "sign off on", "wrap"),
        "block": ("block",),
        "delete": ("delete", "remove", "trash", "get rid of", "discard", "erase", "scrap", "kill", "nuke", "del"),
        # Not "open": "open tasks for carol" asks to see them.
        "create": ("create", "add", "make", "set up", "log", "file", "start", "new", "spin up"),
        "assign": ("assign", "reassign", "give", "hand", "hand over", "hand off", "pass", "transfer"),
        # "assign carol to task 5", "put carol on task 5": the person before the task.
        "staff": ("assign", "reassign", "put", "add", "move", "switch"),
        "unassign": ("unassign", "deassign"),
        # "remove carol from task 5", "take carol off task 5", "clear the assignee of task 5".
        "unstaff": ("remove", "take", "pull", "drop", "clear", "delete", "unset", "reset", "unassign", "strip",
                    "blank", "wipe", "empty"),
        # "leave task 5 unassigned", "set task 5 to nobody".
        "leave": ("leave", "set", "make", "mark", "put"),
        "rename": ("rename", "retitle", "call", "name", "relabel")},
    zh={"mark": (*_ZH_RETITLE, "标记为", "标为", "置为", "标成", "调为", "调成", "调到", "调整为", "标记成", "推迟到",
                 "延期到", "延到", "提前到", "挪到", "移到", "定在", "设在", "改在", "设定为", "设置成", "提到", "升到",
                 "升为", "降到", "降为", "提高到", "提高为", "提升到", "提升为", "降低到", "降低为", "标记", "调整至",
                 "设置成为"),
        # The mark verbs that give a task's title a new one ("把任务5的标题改成X"); the others ("标成", "调整至")
        # mark or trim it.
        "retitle": _ZH_RETITLE,
        # Before a status only: "任务5 标完成", never "任务5的标题标点有问题".
        "tag": ("标", "标个", "标一下"),
        "block": ("挂起", "搁置", "阻塞"),
        "close": ("完成", "关闭", "结束", "关掉"),
        "delete": ("删除", "删掉", "删了", "移除", "去掉", "删"),
        "create": ("创建", "新建", "添加", "新增", "加", "建", "建立", "加一个", "建一个", "新开", "开个", "开一个",
                   "建个"),
        "assign": ("分配给", "指派给", "交给", "分给", "指给", "转给", "派给"),
        "unassign": ("取消分配", "取消指派"),
        # "把任务5的负责人去掉", "把carol从任务5上撤下来", "取消任务5的分配".
        "unstaff": ("去掉", "删掉", "移除", "清空", "撤下来", "撤掉", "拿掉", "撤下", "去除", "清除", "取消", "清掉",
                    "清了", "置空", "撤了", "撤销", "取消掉"),
        "rename": ("重命名为", "重命名成", "改名为", "改名叫", "标题改为", "标题改成", "名称改为", "名字改为", "改名",
                    "改个名", "改名字", "改个名字")},
)
