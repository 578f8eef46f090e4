"""The workload answer's "Reassign" move: one task of an overloaded person, proposed to the least-loaded member.

The answer proposes it (``reassign_proposal``), chosen by the server: the overloaded person's most urgent
open task in a project the user may change (overdue first, then the earliest due date, then the
highest priority, then the lowest id), to the member of that task's project (owner or member) with the
fewest open tasks there (ties by username). The move is a button carrying the two ids the server
rendered; pressing it posts them to the sidebar (agent/web/sidebar.py), which checks them again here
(``reassign_route``) and runs crud's assign with a route marked ``proposed``: no model reads anything,
and the run always stops on crud's confirmation card, whose Approve re-reads the task and re-checks
the member before writing (crud/fields.py). A dedicated request rather than a message: the ids are
checked as ids (a tampered one is refused naming the field), and a button makes no model call.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Case, F, IntegerField, Sum, Value, When

from agent.routing.decision import Route, Slots
from agent.words.language import Language, in_each_language
from pm_assistant.errors import Conflict, InvalidInput, NotFound
from projects.selectors import project_ids_writable_for_user, project_writers
from tasks.models import Task, TaskCount
from tasks.selectors import task_get_for_user

WORDS = in_each_language(
    en={"move": "Reassign {key} to {name}", "message": "Reassign {key} to {name}",
        "hint": "{key} “{title}”, {who}'s most urgent open task, to the member of {project} with the fewest open "
                "tasks there; you confirm on a card first",
        "bad_id": "Nothing was changed: {field}: this is not an id the answer gave.",
        "task_gone": "Nothing was changed: task: this task is not in your projects, or no longer exists.",
        "task_done": "Nothing was changed: task: {key} is done since the answer, so there is nothing to reassign.",
        "not_member": "Nothing was changed: assignee: this person is not a member (owner or member) of {project}, "
                      "the task's project.",
        "has_it": "Nothing was changed: assignee: {key} is already assigned to {name}."},
    zh={"move": "把 {key} 改派给 {name}", "message": "把 {key} 改派给 {name}",
        "hint": "{who} 最紧急的未完成任务 {key}“{title}”，改派给 {project} 中未完成任务最少的成员；先在卡片上确认",
        "bad_id": "什么都没有改：{field}：这不是回答给出的 id。",
        "task_gone": "什么都没有改：任务（task）不在你的项目中，或已不存在。",
        "task_done": "什么都没有改：任务（task）{key} 在回答之后已完成，无需改派。",
        "not_member": "什么都没有改：负责人（assignee）不是任务所在项目 {project} 的成员（所有者或成员）。",
        "has_it": "什么都没有改：负责人（assignee）：{key} 已经分配给 {name}。"},
)
def reassign_proposal(*, user: User, person_id: int, project_ids: list[int], today: str) -> dict[str, Any]:
    """The person's most urgent open task in a project the user may change, and who would take it (or none);
    ``today`` is the server's date the answer counted overdue tasks by (ISO)."""
    writable = project_ids_writable_for_user(user=user) & set(project_ids)
    overdue_first = Case(When(due_date__lt=date.fromisoformat(today), then=Value(0)), default=Value(1),
                         output_field=IntegerField())
    task = (Task.objects.filter(project_id__in=writable, assignee_id=person_id).exclude(status=Task.Status.DONE)
            .select_related("project", "assignee")
            .order_by(overdue_first, F("due_date").asc(nulls_last=True), "priority", "id").first())
    if task is None:
        return {"items": []}
    load = dict(TaskCount.objects.filter(project_id=task.project_id).exclude(status=Task.Status.DONE)
                .values("assignee_key").annotate(n=Sum("tasks")).order_by().values_list("assignee_key", "n"))
    members = (project_writers(project_id=task.project_id).exclude(user_id=person_id).select_related("user")
               .order_by("user__username"))
    fewest = min(members, key=lambda m: load.get(m.user_id, 0), default=None)  # min keeps the first: by username
    if fewest is None:
        return {"items": []}
    return {"items": [{"task_id": task.pk, "key": task.key, "title": task.title, "project_id": task.project_id,
                       "project": task.project.name, "from": task.assignee.get_username() if task.assignee else None,
                       "to_id": fewest.user_id, "to": fewest.user.get_username(),
                       "to_open": load.get(fewest.user_id, 0)}]}


def reassign_move(proposal: dict[str, Any], language: Language) -> dict[str, Any]:
    """The move as the answer shows it: its words, and the ids its button sends."""
    words = WORDS[language]
    return {"label": words["move"].format(key=proposal["key"], name=proposal["to"]),
            "hint": words["hint"].format(key=proposal["key"], title=proposal["title"], who=proposal["from"],
                                         project=proposal["project"]),
            "task": proposal["task_id"], "assignee": proposal["to_id"], "lang": language}


def _id(value: str, field: str, lang: Language) -> int:
    number = int(value) if value.isascii() and value.isdigit() and len(value) < 19 else 0
    if number < 1:
        raise InvalidInput(WORDS[lang]["bad_id"].format(field=field), field=field)
    return number


def reassign_route(*, user: User, task: str, assignee: str, language: str) -> tuple[str, Route]:
    """Check a pressed move's ids again and return the message that words it and crud's route for it.

    The task must be one the user can see and still open; the person a member (owner or member) of
    its project who does not have it already. Anything else is refused naming the field, in the
    answer's language (the error's message is the sentence the sidebar shows).
    """
    lang: Language = "zh" if language == "zh" else "en"
    words = WORDS[lang]
    try:
        found = task_get_for_user(user=user, task_id=_id(task, "task", lang))
    except NotFound:
        raise NotFound(words["task_gone"], field="task") from None
    if found.status == Task.Status.DONE:
        raise Conflict(words["task_done"].format(key=found.key), field="task")
    member = (project_writers(project_id=found.project_id).filter(user_id=_id(assignee, "assignee", lang))
              .select_related("user").first())
    if member is None:
        raise InvalidInput(words["not_member"].format(project=found.project.name), field="assignee")
    if found.assignee_id == member.user_id:
        raise Conflict(words["has_it"].format(key=found.key, name=member.user.get_username()), field="assignee")
    name = member.user.get_username()
    message = WORDS[lang]["message"].format(key=found.key, name=name)
    slots = Slots(operation="assign", scope="selected", task_id=found.pk, assignee=name)
    return message, Route(capability="crud", via="fast_path", slots=slots, proposed=True,
                          reason="The workload answer's reassign move")
