"""crud's answers in each language an answer is written in (agent.words.language).

Keys, titles, counts and dates come from the rows the tools wrote; only the words around them differ.
"""
from __future__ import annotations

from typing import Any

from agent.words.language import Language, in_each_language
from pm_assistant.dates import date_shown
from pm_assistant.markdown import quoted
from pm_assistant.vocabulary import STATUS_LABELS, STATUS_LABELS_ZH

TEXTS = in_each_language(
    en={
        "created": "Created {key} {title}{said}.", "created_said": ": {said}",
        "updated": "Updated {task}: {said}.",
        "unchanged": "{task} already had {said}, so nothing was changed.",
        "status": "status {value}", "priority": "priority {value}", "due": "due {value}", "join": ", ",
        "marked": "Marked {count} tasks as {status}.",
        "none_to_change": "Nothing to change: every visible task already has that status.",
        "cancelled": "Cancelled: the {count} tasks were left as they were.",
        "deleted": "Deleted {title}{extra}.", "deleted_subtasks": " and its {count} subtasks",
        "kept": "Kept {title}: nothing was deleted.",
        "name_it": "What should the new task be called?",
        "no_such_task": "There is no task {key} among your projects, so nothing was changed.",
        "not_found": "I couldn't find that task among your projects, so nothing was changed.",
        "cannot_delete": "You can see {title} but not change it, so it cannot be deleted.",
        "changed_not_deleted": "{title} changed since you were asked, so it was not deleted. Please look at it again.",
        "confirm_delete": "Please confirm the delete of {key} {title}.",
        "confirm_many": "Please confirm: this changes {count} tasks.",
        "no_project": "You cannot add tasks to any project, so nothing was created.",
        "pick_project": "Which project should {title} go in? Pick one{more}.",
        "more_projects": " (the first ten are listed; open another project's page and ask there)",
        "view_only": "You can only view these tasks, so nothing was changed.",
        "which_status": "Which status should the visible tasks get?",
        "visible_changed": "The visible tasks changed since you were asked; nothing was changed. "
                           "Please look again and retry.",
        "differed": " (The task's real title/status differed from what was stated; the database was used.)",
        "which_operation": "Do you want to create, change, assign, rename or delete a task?",
        "one_change": "I assign or rename one task at a time. Select it, or give its key like WEB-42.",
        "one_delete": "I delete one task at a time, after you confirm. Select it, or give its key like WEB-42.",
        "which_task_typed": "Which task do you mean? Select it on the page or type its key, like WEB-42.",
        "which_task": "Which task? Select it on the page or give its key, like WEB-42.",
        "nothing_changed": "Nothing was changed: {why}",
        # A change the message did not ask for in so many words (write_approval.py).
        "change_update": "Change {key} “{title}”: {values}", "no_values": "nothing",
        "change_create": "Create the task “{title}” in {project}{values}", "create_values": " ({values})",
        "value": "{name} {value}", "name_status": "status", "name_priority": "priority", "name_due_date": "due date",
        "name_assignee": "assignee", "name_title": "title", "nobody": "nobody",
        # Assign, unassign, rename (fields.py).
        "assignee": "assigned to {value}", "unassigned": "unassigned", "title": "title {value}",
        "renamed": " (was {before})",
        "who_to": "Who should the task be assigned to? Give their username, like carol.",
        "new_title": "What should the task's new title be?",
        "who_unknown": "I couldn't find anyone called “{name}” among the members of your projects, so nothing was "
                       "changed. Who do you mean? Give their username as it appears on the task list.",
        "not_member": "Nothing was changed: assignee: “{name}” is not a member of {project}, the task's project.",
        "who_several": "Several members of the task's project go by “{name}”: {names}. Which one? Give the "
                       "username.",
        "not_theirs": "{task} is not assigned to {name} (its assignee is {assignee}), so nothing was changed.",
        "had_assignee": "assignee {value}", "had_nobody": "no assignee",
        "confirm_unasked": "Please confirm: {change}. Your message did not ask for this change in so many words, "
                           "so nothing is changed until you approve.",
        "confirm_proposed": "Please confirm: {change}. The assistant proposed this change; nothing is changed "
                            "until you approve.",
        "cancelled_one": "Cancelled: nothing was changed.",
        "task_changed": "The task changed since you were asked, so nothing was changed. Please look at it again.",
        "cannot_change": "You can see {title} but not change it, so nothing was changed.",
        # A model-routed write whose stated facts disagree with the database (write_approval.py).
        "mismatch": "What was stated about the task does not match the database: {items}.",
        "mismatch_item": "{field} {stated} was stated, the database says {actual}", "mismatch_join": "; ",
        "confirm_mismatch": "Please confirm: {change}. {mismatch} Nothing is changed until you approve.",
    },
    zh={
        "created": "已创建 {key} {title}{said}。", "created_said": "：{said}",
        "updated": "已更新 {task}：{said}。",
        "unchanged": "{task} 已经是{said}，什么都没有改。",
        "status": "状态 {value}", "priority": "优先级 {value}", "due": "截止日期 {value}", "join": "，",
        "marked": "已把 {count} 个任务标记为{status}。",
        "none_to_change": "没有要改的：每个可见任务都已经是这个状态。",
        "cancelled": "已取消：这 {count} 个任务保持原样。",
        "deleted": "已删除 {title}{extra}。", "deleted_subtasks": "及其 {count} 个子任务",
        "kept": "已保留 {title}：没有删除任何任务。",
        "name_it": "新任务叫什么名字？",
        "no_such_task": "你的项目中没有任务 {key}，什么都没有改。",
        "not_found": "在你的项目中找不到这个任务，什么都没有改。",
        "cannot_delete": "你能查看 {title}，但不能修改它，所以不能删除。",
        "changed_not_deleted": "{title} 在询问你之后有了变化，所以没有删除。请再看一下。",
        "confirm_delete": "请确认删除 {key} {title}。",
        "confirm_many": "请确认：这会修改 {count} 个任务。",
        "no_project": "你不能在任何项目中添加任务，所以什么都没有创建。",
        "pick_project": "{title} 应该放在哪个项目里？请选一个{more}。",
        "more_projects": "（只列出前十个；也可以打开另一个项目的页面再问）",
        "view_only": "你只能查看这些任务，所以什么都没有改。",
        "which_status": "可见的任务要改成什么状态？",
        "visible_changed": "在询问你之后，可见的任务有了变化；什么都没有改。请再看一下后重试。",
        "differed": "（任务实际的标题或状态与所说的不同；以数据库为准。）",
        "which_operation": "你要创建、修改、分配、重命名还是删除任务？",
        "one_change": "我一次只分配或重命名一个任务。请选中它，或给出它的编号，例如 WEB-42。",
        "one_delete": "我一次只删除一个任务，并且要你确认。请选中它，或给出它的编号，例如 WEB-42。",
        "which_task_typed": "你指的是哪个任务？请在页面上选中它，或输入它的编号，例如 WEB-42。",
        "which_task": "哪个任务？请在页面上选中它，或给出它的编号，例如 WEB-42。",
        "nothing_changed": "什么都没有改：{why}",
        "change_update": "修改 {key} “{title}”：{values}", "no_values": "无",
        "change_create": "在 {project} 中创建任务“{title}”{values}", "create_values": "（{values}）",
        "value": "{name} {value}", "name_status": "状态", "name_priority": "优先级", "name_due_date": "截止日期",
        "name_assignee": "负责人", "name_title": "标题", "nobody": "无人",
        "assignee": "负责人 {value}", "unassigned": "无负责人", "title": "标题 {value}", "renamed": "（原为 {before}）",
        "who_to": "要把任务分配给谁？请给出用户名，例如 carol。",
        "new_title": "任务的新标题是什么？",
        "who_unknown": "在你的项目成员中找不到“{name}”，什么都没有改。你指的是谁？请给出任务列表上显示的用户名。",
        "not_member": "什么都没有改：负责人（assignee）“{name}”不是任务所在项目 {project} 的成员。",
        "who_several": "任务所在项目中有几位成员都叫“{name}”：{names}。是哪一位？请给出用户名。",
        "not_theirs": "{task} 的负责人不是 {name}（现在是 {assignee}），所以什么都没有改。",
        "had_assignee": "负责人 {value}", "had_nobody": "无负责人",
        "confirm_unasked": "请确认：{change}。你的消息没有明确要求这个修改，所以批准之前什么都不会改。",
        "confirm_proposed": "请确认：{change}。这是助手提出的修改，批准之前什么都不会改。",
        "cancelled_one": "已取消：什么都没有改。",
        "task_changed": "在询问你之后这个任务有了变化，所以什么都没有改。请再看一下。",
        "cannot_change": "你能查看 {title}，但不能修改它，所以什么都没有改。",
        "mismatch": "关于这个任务所说的与数据库不一致：{items}。",
        "mismatch_item": "所说的{field}是 {stated}，数据库中是 {actual}", "mismatch_join": "；",
        "confirm_mismatch": "请确认：{change}。{mismatch}批准之前什么都不会改。",
    },
)


def status_label(status: str, language: Language) -> str:
    return STATUS_LABELS_ZH[status] if language == "zh" else STATUS_LABELS[status].lower()  # type: ignore[index]


def update_words(row: dict[str, Any], named: dict[str, bool], *, changed: bool, language: Language,
                 before: str = "") -> str:
    """What the update set, read back from the row: only the fields the request named (``before``: the
    title a rename replaced)."""
    words = TEXTS[language]
    who = row.get("assignee")
    parts = [words["status"].format(value=status_label(row["status"], language)) if named["status"] else "",
             words["priority"].format(value=row["priority"]) if named["priority"] else "",
             words["due"].format(value=date_shown(row["due_date"])) if named["due_date"] else "",
             (words["assignee" if changed else "had_assignee"].format(value=who) if who
              else words["unassigned" if changed else "had_nobody"]) if named.get("assignee") else "",
             words["title"].format(value=quoted(row["title"])) + (words["renamed"].format(before=before)
                                                                 if before and changed else "")
             if named.get("title") else ""]
    said = words["join"].join(part for part in parts if part) or \
        words["status"].format(value=status_label(row["status"], language))
    task = f"{row['key']} {quoted(row['title'])}"
    return words["updated" if changed else "unchanged"].format(task=task, said=said)


def created_words(row: dict[str, Any], *, language: Language) -> str:
    """What a create made, with the due date and priority it understood (read back from the row)."""
    words = TEXTS[language]
    parts = [words["due"].format(value=date_shown(row["due_date"])) if row.get("due_date") else "",
             words["priority"].format(value=row["priority"]) if row.get("priority_named") else ""]
    said = words["join"].join(part for part in parts if part)
    return words["created"].format(key=row["key"], title=quoted(row["title"]),
                                   said=words["created_said"].format(said=said) if said else "")
