"""The offline planner: a deterministic breakdown from the task's own words, so the demo works without a model.

A description's bullet or numbered list becomes one subtask per line; otherwise clauses joined by
"and" or semicolons (in the description's first sentence), else the description's sentences, else
the title's clauses become subtasks; only a task that names no parts at all gets a plain
plan / build / review. A step is an action: a part that does not begin with a verb (after "we need
to", "then", ...) restates a fact or a goal ("Lighthouse score on mobile is below 70") and is left
out, and a source with fewer than two actions gives way to the next. A part that is already a
subtask of the task is never proposed again. Its plan goes through the same validation as a model's.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .plan import SELECTED

_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)]|\[[ xX]?\])\s+(\S.*?)\s*$")
_AND = re.compile(r"\s*(?:,\s*and\s+|\s+and\s+|,\s*|;\s*|、|，|；|以及)\s*", re.IGNORECASE)
_JOINED = re.compile(r"\sand\s|以及|、|;|；", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n")
TEMPLATE = ("Plan", "Build", "Review")
# The verbs a step may begin with: a part that begins otherwise is a fact or a goal, not something to do.
VERBS = frozenset("""
add agree align analyse analyze announce answer apply approve archive ask assign audit automate back backup
book brief build buy calculate call cancel change check choose clean clear close collect combine compare
compile compress configure confirm connect contact convert copy correct create cut debug decide define
delete deliver demo deploy describe design disable discuss document download draft drop edit email enable
estimate evaluate export extract file fill find finish fix follow format gather generate get give go hire
host identify implement import improve inform install integrate interview invite investigate label launch
lazy-load lazy list load lock log make map mark measure meet merge migrate minify mock monitor move name
note notify open optimise optimize order organise organize outline pay pick plan polish post prepare present
price print prioritise prioritize profile prototype publish purchase push put raise read rebuild record
reduce refactor register release remove rename render repair replace reply report request research reset
resize resolve restore retest review revise rewrite run save scan schedule score script secure select send
set settle share ship show sign simplify sketch sort specify split stage start stop store streamline submit
summarise summarize support survey switch sync tag take tell test track train transfer translate trim tune
turn unify update upgrade upload use validate verify visit watch wire write accept adjust allow arrange attend
brainstorm bump capture collect consolidate coordinate count cover craft do draw fetch feed grant handle help
hold join keep link lint localise localize look pin pitch plug proofread rank rate recruit refine reach remind
retire rotate shoot shorten sunset test tidy translate try unblock walk warn wrap
""".split())
VERBS_ZH = ("编写", "写", "修复", "修", "检查", "测试", "设计", "实现", "更新", "部署", "准备", "审查", "评审", "整理",
            "添加", "增加", "删除", "优化", "确认", "联系", "发布", "安排", "制定", "收集", "分析", "排期", "压缩",
            "翻译", "通知", "提交", "上线", "完成", "开发", "编辑", "调研", "梳理", "讨论", "预订", "发送", "撰写",
            "起草", "核对", "验证", "配置", "迁移", "重构", "清理", "统计", "计划", "规划", "跟进", "复盘", "汇总",
            "创建", "建立", "搭建", "培训", "招聘", "购买", "采购", "审核", "校对", "录制", "监控", "评估", "估算",
            "对比", "比较", "选择", "确定", "修改", "调整", "替换", "移除", "合并", "拆分", "上传", "安装", "升级",
            "备份", "恢复", "启动", "邀请", "预约", "组织", "召开", "举办", "宣传", "推广", "设置", "定义", "记录",
            "画", "拍", "订", "买", "发", "做", "跑", "查", "改", "建")
# What may stand before the verb of a step without being part of it.
_LEAD_IN = re.compile(r"^(?:(?:we|you|i|they|someone)\s+)?(?:(?:need|needs|have|has|want|ought)\s+to|must|should|"
                      r"will|can|then|first|next|finally|also|and|please|let'?s)\b[\s,]*", re.IGNORECASE)
_LEAD_IN_ZH = re.compile(r"^(?:我们|大家|你)?(?:需要|要|得|先|然后|再|最后|并|请)+")
TITLE_MAX = 300
CLAUSE_MIN = 2


def _tidy(text: str) -> str:
    text = text.strip().rstrip(".;,!?。；，！？").strip()
    return (text[:1].upper() + text[1:])[:TITLE_MAX]


def _action(part: str) -> str | None:
    """The part as a step if it is an action (verb first, once any lead-in is dropped), else None."""
    text = part
    for _ in range(3):
        text = _LEAD_IN_ZH.sub("", _LEAD_IN.sub("", text)).strip()
    first = re.split(r"[\s:,]+", text.lower(), maxsplit=1)[0] if text else ""
    if first in VERBS or first.split("-")[0] in VERBS or (text.startswith(VERBS_ZH) and not first.isascii()):
        return _tidy(text)
    return None


def _actions(parts: list[str]) -> list[str]:
    found = [a for a in map(_action, parts) if a]
    return found if len(found) >= 2 else []


def _key(title: str) -> str:
    """A title as compared with the subtasks there are: case, spaces and punctuation aside."""
    return re.sub(r"[\W_]+", " ", title).strip().casefold()


def _bullets(description: str) -> list[str]:
    found = [m.group(1) for m in map(_BULLET.match, description.splitlines()) if m]
    return [_tidy(t) for t in found] if len(found) >= 2 else []


def _clauses(text: str) -> list[str]:
    first = _SENTENCE_END.split(text.strip(), maxsplit=1)[0] if text.strip() else ""
    if not _JOINED.search(first):
        return []
    # "The page must: load fast; show prices": the lead-in before a colon names no part.
    lead, colon, rest = first.partition(":")
    if colon and _JOINED.search(rest):
        first = rest
    parts = [_tidy(p) for p in _AND.split(first)]
    parts = [p for p in parts if len(p) >= CLAUSE_MIN]
    return parts if len(parts) >= 2 else []


def _sentences(description: str) -> list[str]:
    found = [_tidy(s) for s in _SENTENCE_END.split(description.strip())]
    found = [s for s in found if len(s) >= CLAUSE_MIN]
    return found if len(found) >= 2 else []


def offline_titles(brief: Mapping[str, Any]) -> list[str]:
    """The subtask titles the rules find in the task's description and title, less those it has already."""
    description = brief.get("description") or ""
    titles = (_actions(_bullets(description)) or _actions(_clauses(description))
              or _actions(_sentences(description)) or _actions(_clauses(brief["title"]))
              or [_tidy(f"{verb}: {brief['title']}") for verb in TEMPLATE])
    existing = {_key(t) for t in brief.get("existing_titles") or brief.get("subtask_titles") or []}
    return [t for t in titles if _key(t) not in existing]


def offline_plan(brief: Mapping[str, Any], *, max_steps: int) -> dict[str, Any]:
    """A plan of create_subtask steps under the selected task, shaped like a planner's answer."""
    parent = {"from_step": SELECTED, "path": "$.id"}
    return {"steps": [{"id": f"s{n}", "tool": "create_subtask",
                       "args": {"parent_id": parent, "title": title, "due_date": None, "priority": None,
                                "assignee": None}}
                      for n, title in enumerate(offline_titles(brief)[:max_steps], start=1)]}
