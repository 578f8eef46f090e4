"""The HTML of the small pieces every task page shows (a status badge, a due date, a task table's rows).

Built here with `format_html` rather than in a template because a list page renders 25 rows of
about sixty variable lookups, filters and `{% url %}` tags each, and the template engine spent
most of the page's time on them (`bench/template_ab.py`, "Task rows from Python" in docs/PERFORMANCE.md).
Every value reaches the HTML through `format_html`, which escapes it; the templates call these
through the tags of `tasks.templatetags.task_ui`.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import date
from typing import Any, Protocol

from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from pm_assistant.dates import date_shown
from tasks.models import Task


class RowAction(Protocol):
    """A row button as the assistant declares it (agent.routing.quick_actions.QuickAction)."""

    origin: str
    action: str
    label: str
    hidden_for_status: str | None

    @property
    def asks_first(self) -> bool: ...

    def name_for(self, title: str) -> str: ...


def is_overdue(task: Task, today: date | None = None) -> bool:
    """Tell whether an open task is past its due date."""
    return bool(task.due_date and task.status != Task.Status.DONE
                and task.due_date < (today or timezone.localdate()))


def status_badge(task: Task) -> SafeString:
    """The task's status as a coloured badge."""
    return format_html('<span class="badge status-{}">{}</span>', task.status, task.get_status_display())


def priority_pill(task: Task) -> SafeString:
    """The task's priority (P0–P3), its meaning in the title."""
    return format_html('<span class="priority priority-{}" title="{}">{}</span>',
                       task.priority, task.get_priority_display(), task.priority)


def progress(task: Task) -> SafeString:
    """The task's progress as a bar and a percentage."""
    return format_html(
        '<span class="progress" title="{0}% done"><span class="progress-track"><span class="progress-fill" '
        'style="width: {0}%"></span></span><span class="progress-num">{0}%</span></span>', task.progress)


def due(task: Task, today: date | None = None) -> SafeString:
    """The due date as a <time>, marked when the task is overdue; a dash when it has none."""
    if not task.due_date:
        return mark_safe('<span class="muted">—</span>')
    if is_overdue(task, today):
        return format_html('<time datetime="{}" class="due overdue" title="Overdue">{}</time>',
                           task.due_date.isoformat(), date_shown(task.due_date))
    return format_html('<time datetime="{}" class="due">{}</time>',
                       task.due_date.isoformat(), date_shown(task.due_date))


def initials(user: Any) -> str:
    """Return up to two initials for an avatar."""
    if user is None:
        return "?"
    name = (user.get_full_name() or user.get_username()).strip()
    parts = name.split()
    return ("".join(p[0] for p in parts[:2]) if len(parts) > 1 else name[:2]).upper()


def display_name(user: Any) -> str:
    """Return the user's full name, or the username."""
    if user is None:
        return ""
    return str(user.get_full_name() or user.get_username())


def assignee(task: Task) -> SafeString:
    """The assignee with an avatar of their initials, or "Unassigned"."""
    if not task.assignee:
        return mark_safe('<span class="muted">Unassigned</span>')
    return format_html('<span class="person"><span class="avatar avatar-sm" aria-hidden="true">{}</span>{}</span>',
                       initials(task.assignee), display_name(task.assignee))


# A row button, split around its accessible name: the one part that differs from row to row.
_BUTTON_HEAD = ('\n  <button type="button" class="chip{}" data-origin="{}"\n'
                '          data-assistant-action="{}" aria-label="')
_BUTTON_TAIL = ('" title="{} ({})"\n'
                '          hx-post="{}" hx-vals=\'{{"action": "{}"}}\'\n'
                '          hx-target="#assistant-transcript" hx-swap="beforeend">{}</button>\n  ')

# The group of a row's buttons, naming the task they act on as the PageContext's selectedEntity.
_GROUP_HEAD = """<span class="row-actions" data-assistant-row data-selected-entity='{{"type":"task","id":{}}}'>"""


class RowButtons:
    """The assistant's buttons of one table's rows, escaped once for the table: per row only the task's
    title (in each button's accessible name) and which buttons its status leaves out differ."""

    def __init__(self, actions: Iterable[RowAction], request_url: str) -> None:
        self._buttons = [
            (a, format_html(_BUTTON_HEAD, " chip-danger" if a.asks_first else "", a.origin, a.action),
             format_html(_BUTTON_TAIL, a.label, "asks first" if a.asks_first else "assistant", request_url,
                         a.action, a.label))
            for a in actions]

    def for_task(self, task: Task) -> SafeString:
        """The buttons on one task's row; a button that makes no sense in the task's status is left out.

        Their group names the task they act on, as the PageContext's ``selectedEntity`` (JSON), so the
        assistant's script sends it with the request without reading the row's own markup.
        """
        buttons = "".join(head + escape(a.name_for(task.title)) + tail
                          for a, head, tail in self._buttons if a.hidden_for_status != task.status)
        group = format_html(_GROUP_HEAD, task.pk)
        # Every part is escaped (format_html, escape): joining them keeps them safe.
        return mark_safe(f"\n{group}\n  {buttons}\n</span>\n")  # noqa: S308


_ROW = """
<tr class="task-row{}" data-entity-type="task" data-entity-id="{}">
  <td class="col-title"><span class="key">{}</span> <a href="{}" class="task-link">{}</a></td>
  <td class="col-project"><a class="key" href="{}">{}</a></td>
  <td class="col-status">{}</td>
  <td class="col-priority">{}</td>
  <td class="col-assignee">{}</td>
  <td class="col-due">{}</td>
  <td class="col-progress">{}</td>
  <td class="col-actions">{}</td>
</tr>
"""


def task_rows(tasks: Iterable[Task], *, actions: Collection[RowAction], request_url: str,
              writable_project_ids: Collection[int]) -> SafeString:
    """A task table's rows; the row buttons only on the tasks of projects the user may change."""
    today, buttons = timezone.localdate(), RowButtons(actions, request_url)
    return format_html_join("", _ROW, (
        (" is-overdue" if is_overdue(t, today) else "", t.pk, t.key, reverse("task-detail", args=[t.pk]), t.title,
         reverse("project-detail", args=[t.project_id]), t.project.key, status_badge(t), priority_pill(t), assignee(t),
         due(t, today), progress(t),
         buttons.for_task(t) if t.project_id in writable_project_ids else "")
        for t in tasks))

