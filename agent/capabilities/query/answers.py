"""The query's answer templates, in each language an answer is written in (agent.words.language).

Figures and task keys come from the result the server read; only the words around them differ.
"""
from __future__ import annotations

from typing import Any

from agent.reading.reader import Reading
from agent.routing.decision import Slots
from agent.words.language import Language, in_each_language
from pm_assistant.markdown import literal, quoted
from pm_assistant.vocabulary import OPEN_STATUSES, STATUS_LABELS, STATUS_LABELS_ZH

TEXTS = in_each_language(
    en={"what_mine": "overdue tasks assigned to you", "what_any": "matching tasks",
        "one_mine": "overdue task assigned to you", "one_any": "matching task",
        "what_overdue": "overdue tasks", "one_overdue": "overdue task",
        "more": ", and {n} more", "none": "No {what}.", "found": "{count} {what}: {titles}{more}.",
        "join": "; ", "unusable": "I couldn't use {words}, so the list is not narrowed by it.", "quote": "'{}'",
        "or": " or ", "said": " ({said})", "said_join": "; ", "assigned": "assigned to {name}",
        "unassigned": "assigned to nobody", "mine": "assigned to you", "due_between": "due {first} to {last}",
        "due_on": "due {first}",
        "due_by": "due by {last}", "due_from": "due from {first}", "open": "open"},
    zh={"what_mine": "分配给你的逾期任务", "what_any": "符合条件的任务",
        "one_mine": "分配给你的逾期任务", "one_any": "符合条件的任务",
        "what_overdue": "逾期任务", "one_overdue": "逾期任务",
        "more": "，另有 {n} 个", "none": "没有{what}。", "found": "共 {count} 个{what}：{titles}{more}。",
        "join": "；", "unusable": "我没能使用{words}这个条件，下面的结果没有按它筛选。", "quote": "“{}”", "or": "、",
        "said": "（{said}）", "said_join": "；", "assigned": "负责人 {name}", "unassigned": "无负责人",
        "mine": "分配给你",
        "due_between": "截止日期 {first} 至 {last}", "due_on": "截止日期 {first}", "due_by": "截止日期不晚于 {last}",
        "due_from": "截止日期不早于 {first}", "open": "未完成"},
)
NAMED = 3


def filter_words(slots: Slots, person: str | None, language: Language = "en", *, open_only: bool = False) -> str:
    """The priorities, statuses, person and due range the list was narrowed to ("open" also when only open
    tasks are listed though no status was said: "my P0 tasks"), as the answer states them ("" when none)."""
    words = TEXTS[language]
    first, last = slots.due_after, slots.due_before
    statuses = tuple(slots.status_filter or ())
    labels = STATUS_LABELS_ZH if language == "zh" else {k: v.lower() for k, v in STATUS_LABELS.items()}
    shown = words["open"] if open_only or set(statuses) == set(OPEN_STATUSES) else \
        words["or"].join(labels[s] for s in dict.fromkeys(statuses))
    parts = [words["or"].join(dict.fromkeys(slots.priority_filter or ())), shown,
             words["assigned"].format(name=person) if person else "", words["unassigned"] if slots.unassigned else "",
             # "my blocked tasks": whose, as for a person (my overdue tasks say it in their own words).
             words["mine"] if slots.assignee_me and not person and slots.preset != "my_overdue" else ""]
    if first or last:
        kind = ("due_on" if first == last else "due_between") if first and last else \
            "due_by" if last else "due_from"
        parts.append(words[kind].format(first=first, last=last))
    said = words["said_join"].join(part for part in parts if part)
    return words["said"].format(said=said) if said else ""


def template_reply(result: dict[str, Any], slots: Slots, language: Language = "en", *, said: str = "") -> str:
    """The answer without a model: how many tasks were found and the first few by key and title; ``said`` the
    person and due range the list was narrowed to (filter_words)."""
    count = result["count"]
    words = TEXTS[language]
    which = {"my_overdue": "mine", "overdue": "overdue"}.get(slots.preset or "", "any")
    if count == 0:
        return words["none"].format(what=words[f"what_{which}"] + said)
    what = words[("one_" if count == 1 else "what_") + which] + said
    titles = words["join"].join(f"{r['key']} {quoted(r['title'])}" for r in result["items"][:NAMED])
    more = words["more"].format(n=count - NAMED) if count > NAMED else ""
    return words["found"].format(count=count, what=what, titles=titles, more=more)


def unread_filters(reading: Reading, slots: Slots) -> tuple[str, ...]:
    """The filters the reader read in the message that the route does not carry (a router model that dropped
    "assigned to carol" or "due this week"), with those the reader could not use: each is named, never dropped."""
    if reading.capability != "query":
        return ()  # the reader did not read a query here (a message it could not read): the route stands
    read, dropped = reading.slots, []
    if read.get("assignee") and not (slots.assignee or slots.assignee_me):
        dropped.append(f"assigned to {read['assignee']}")
    if read.get("unassigned") and not slots.unassigned:
        dropped.append("unassigned")
    if (read.get("due_after") or read.get("due_before")) and not (slots.due_after or slots.due_before):
        dropped.append(f"due {read.get('due_after') or '…'} to {read.get('due_before') or '…'}")
    return (*reading.unusable, *dropped)


def unusable_words(unusable: tuple[str, ...], language: Language = "en") -> str:
    """Name the filters the request held that the query could not use ("I couldn't use 'assigned to carol'")."""
    words = TEXTS[language]
    return words["unusable"].format(words=words["or"].join(words["quote"].format(literal(w)) for w in unusable))
