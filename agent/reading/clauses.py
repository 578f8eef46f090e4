"""The words around a change that are not the change: where a clause starts, the remarks a title never runs into,
and the marks of a correction. The lexicon (lexicon.py) makes classes of them; the reader reads none of them as
part of a request, so a message that holds one is read whole only where a rule places it.
"""
from __future__ import annotations

# Where a clause starts: an unquoted title ends before one ("create a task called X if …" is not read whole).
CLAUSE = ("if", "when", "once", "unless", "after", "before", "until", "because", "since", "but", "though",
          "although", "sorry", "i mean", "i meant", "actually", "or", "so that", "while", "whenever", "as soon as",
          "don't", "do not", "not", "never", "and then", "then", "please", "thanks", "thank you",
          "如果", "要是", "假如", "的话", "等", "之后", "以后", "后再", "再", "因为", "但是", "不过", "不对", "算了",
          "除非", "吗", "吧",
          "好吗", "谢谢", "了")
# Remarks an unquoted title never runs into: a take-back, a hedge, someone else's word, a question back, a
# "later", a second request or another place. The title ends before one, the rest is unread, and the change
# is offered on a card ("rename task 5 to Launch plan forget it", "… called Write docs in Mobile App").
ASIDES = ("forget it", "nvm", "never mind", "nevermind", "disregard", "undo", "cancel", "oops", "whoops", "my bad",
          "no wait", "wait", "wrong task", "wrong chat", "typo", "jk", "joking", "just joking", "kidding",
          "on second thought", "scratch that", "maybe", "perhaps", "probably", "possibly", "i think", "i guess",
          "i suppose", "idk", "hypothetically", "in theory", "apparently", "allegedly", "supposedly",
          "theoretically", "ideally", "lol", "lmao", "haha", "hmm", "as", "per", "according to", "said", "suggested",
          "wants", "wdyt", "what do you think", "any thoughts", "thoughts", "is that right", "does that work",
          "right", "correct", "later", "eventually", "someday", "at some point", "soonish", "temporarily",
          "pending", "tbd", "for now", "also", "plus", "in", "under", "everywhere", "too", "as well",
          "again", "next week", "this week", "next month", "this month", "soon", "anyway", "anyways", "so", "cheers",
          "is", "was", "were", "good idea", "bad idea", "project", "assignee", "owner", "tag", "tags", "label",
          "labels", "estimate",
          # Chinese: a question tag, a hedge, a take-back, laughter, a remark on the change itself.
          "么", "呢", "没", "没有", "不", "否", "是吧", "对吧", "没错吧", "是不是", "要不要", "该不该", "中不中",
          # A place the task goes, as "in" and "project" are in English ("add 个任务 X 到这个项目里").
          "到这个项目", "到项目里", "在这个项目", "在项目里", "这个项目里", "放到", "加到",
          "对么", "是么", "如何", "怎么样", "咋样", "你觉得", "你看", "当我没说", "才怪", "拉倒", "不行", "不成",
          "嘿嘿", "呵呵", "哈哈", "hhh", "开玩笑", "说着玩", "取消", "撤回", "忽略", "待定", "暂定", "待确认",
          "需确认", "我觉得", "我想", "也许", "可能", "大概", "或许", "回头", "改天", "还是", "或者", "并且", "还有",
          "顺便", "这个操作", "这事", "这件事", "成功", "失败", "报错", "而已", "想得美", "做梦", "和", "以及",
          "据说", "听说", "也行", "建议", "先这样", "就这样", "收到", "搞定", "完事", "感谢", "尽快", "越快越好",
          "比较急", "很急", "立刻", "高优", "通知", "抄送", "提醒", "负责", "来做", "然后",
          # English chat: a sign-off, an aside, someone else to tell or to own it.
          "btw", "fyi", "imo", "imho", "tbh", "iirc", "lgtm", "kthx", "tyvm", "np", "rn", "sry", "brb", "yolo",
          "etc", "cc", "ping", "notify", "owns", "to own", "to review", "like we agreed", "sometime", "first", "yes",
          "eod", "eow", "tmrw", "by the", "blocked on", "waiting on", "over")
# Corrections: "…, sorry I meant task 6" names the task the change is for.
CORRECTIONS = ("sorry i meant", "sorry, i meant", "i meant", "i mean", "sorry", "sorry i mean", "oops i meant",
               "actually i meant", "我是说", "不对，是", "不对是", "是")
# What may stand between a change and a second task it is corrected to ("…, no wait, task 6"): the change
# is then offered on the second task, on a card (reader._named), never done on either.
CORRECTION_MARKS = ("sorry", "i meant", "i mean", "no wait", "wait", "oops", "actually", "rather", "no",
                    "scratch that", "correction", "不对", "说错了", "搞错了", "错了", "应该是", "我是说", "我的意思是",
                    "是", "不", "哦不", "还是")
# Words between a correction and the task it means: "不对，是任务6", "no wait, it's task 6".
RESTATED = frozenset({"是", "it's", "its", "i", "mean", "meant", "should", "be", "应该", "应该是", "就是"})
# Laughter after a change: it may be a joke, so the change is not read whole ("把任务5标记为完成哈哈"), though "哈"
# alone closes a request.
LAUGHTER = ("哈哈", "呵呵", "嘻嘻", "233", "hhh", "haha", "lol", "lmao")
