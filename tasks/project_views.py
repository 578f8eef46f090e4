"""Project pages: the project list and a project's tasks as a list, a board or a timeline.

They live in tasks because they show tasks: projects sits below tasks and imports none of it.
"""
from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from pm_assistant.errors import Forbidden, InvalidInput, NotFound
from pm_assistant.vocabulary import PAGE_SIZE_DEFAULT, STATUS_LABELS, VIEW_MODE_LABELS
from pm_assistant.web import PageRequest, refusal, render_partial
from projects.models import Project
from projects.selectors import (
    membership_role,
    membership_roles,
    project_members,
    project_progress,
    project_progress_for_user,
    project_require_writer,
    role_can_write,
)
from projects.shortcuts import project_or_404

from .counts import task_list_count
from .filters import TaskFilters
from .models import Task
from .page_context import page_context_for
from .paging import LAST, Cursor, task_page
from .selectors import task_counts_for_project, task_list_for_user
from .serializers import PageParamsSerializer
from .services import task_update
from .shortcuts import task_or_404
from .timeline import timeline_for

TABS: dict[str, tuple[str, tuple[str, ...]]] = {
    "overview": ("Overview", ()),
    "in_progress": (STATUS_LABELS["in_progress"], (Task.Status.IN_PROGRESS,)),
    "done": (STATUS_LABELS["done"], (Task.Status.DONE,)),
}
VIEW_MODES = VIEW_MODE_LABELS
# The board and the timeline draw at most this many tasks; the list pages through all of them.
TASK_CAP = 200


@login_required
@require_GET
def project_list(request: PageRequest) -> HttpResponse:
    """List the user's projects with their progress and the user's role."""
    rows = project_progress_for_user(user=request.user)
    roles = membership_roles(user=request.user, project_ids=[cast(Project, row["project"]).pk for row in rows])
    for row in rows:
        row["role"] = roles.get(cast(Project, row["project"]).pk)
    context = {"nav": "projects", "rows": rows, "page_context": page_context_for(page="project_list")}
    return render(request, "projects/list.html", context)


def _choice(request: PageRequest, name: str, allowed: Collection[str], default: str) -> tuple[str, str]:
    raw = request.GET.get(name, "").strip()
    if not raw:
        return default, ""
    if raw not in allowed:
        return default, f"{name}: {raw!r} is not one of {', '.join(allowed)}; showing {default}."
    return raw, ""


def _project_filters(*, project: Project, tab: str) -> TaskFilters:
    return TaskFilters(project_id=project.pk, status=TABS[tab][1])


def _page_params(request: PageRequest) -> tuple[int, Cursor | None, str]:
    """The list's page (a number or a cursor) from the query string, or page 1 and what was wrong."""
    params = PageParamsSerializer(data={k: v for k, v in request.GET.items() if k in ("page", "cursor") and v})
    if not params.is_valid():
        name, reasons = next(iter(params.errors.items()))
        return 1, None, f"{name}: {reasons[0]} Showing the first page."
    return params.validated_data.get("page", 1), params.validated_data.get("cursor"), ""


def _board_columns(tasks: list[Task]) -> list[dict[str, Any]]:
    return [
        {"status": value, "label": label, "tasks": [t for t in tasks if t.status == value]}
        for value, label in Task.Status.choices
    ]


def _summary(*, user: Any, project: Project, tab: str) -> dict[str, Any]:
    # Both count in the database, over this project's tasks only: the page shows one page of them.
    progress = project_progress([project])[0]  # the project: project_or_404 checked it is the user's
    stats = task_counts_for_project(user=user, project_id=project.pk) if tab == "overview" else None
    status_counts = [(value, label, stats[value]) for value, label in Task.Status.choices] if stats else []
    return {"progress": progress, "stats": stats, "status_counts": status_counts}


def _board_context(*, user: Any, project: Project, tab: str, view: str,
                   page: int = 1, cursor: Cursor | None = None) -> dict[str, Any]:
    filters = _project_filters(project=project, tab=tab)
    tasks_qs = task_list_for_user(user=user, filters=filters)
    context: dict[str, Any] = {"statuses": Task.Status.choices}
    if view == "list":
        count = task_list_count(user=user, filters=filters, tasks=tasks_qs)
        try:
            context["page_obj"] = task_page(tasks_qs, page_size=PAGE_SIZE_DEFAULT, page=page, cursor=cursor,
                                            count=count)
        except NotFound:
            context["page_obj"] = task_page(tasks_qs, page_size=PAGE_SIZE_DEFAULT, cursor=LAST, count=count)
        tasks, capped = context["page_obj"].items, False
    else:
        drawn = list(tasks_qs[: TASK_CAP + 1])
        tasks, capped = drawn[:TASK_CAP], len(drawn) > TASK_CAP
    context.update(tasks=tasks, capped=capped)
    visible = tasks
    if view == "board":
        context["columns"] = _board_columns(tasks)
        visible = [t for column in context["columns"] for t in column["tasks"]]
    elif view == "gantt":
        timeline = timeline_for(tasks=tasks, today=timezone.localdate())
        context["timeline"] = timeline
        visible = [bar.task for bar in timeline.bars]
    page_obj = context.get("page_obj")
    context["page_context"] = page_context_for(
        page="project_detail", selected_entity=("project", project.pk), project_id=project.pk,
        active_tab=tab, view_mode=view, visible_entity_ids=[t.pk for t in visible],
        **({"page_number": page_obj.number, "page_size": page_obj.page_size} if page_obj else {}),
    )
    return context


@login_required
@require_GET
def project_detail(request: PageRequest, pk: int) -> HttpResponse:
    """Show a project's tasks for the chosen tab as a list, a board or a timeline."""
    project = project_or_404(user=request.user, project_id=pk)
    tab, tab_problem = _choice(request, "tab", TABS, "overview")
    view, view_problem = _choice(request, "view", VIEW_MODES, "list")
    page, cursor, page_problem = _page_params(request)
    problems = [p for p in (tab_problem, view_problem, page_problem) if p]
    role = membership_role(user=request.user, project=project)
    context = {
        "nav": "projects",
        "project": project,
        "role": role,
        "can_write": role_can_write(role),
        "writable_project_ids": {project.pk} if role_can_write(role) else set(),
        "members": project_members(project=project),
        "tab": tab,
        "view": view,
        "tabs": [(key, label) for key, (label, _) in TABS.items()],
        "view_modes": list(VIEW_MODES.items()),
        "problems": problems,
        "query": request.GET,
        **_board_context(user=request.user, project=project, tab=tab, view=view, page=page, cursor=cursor),
    }
    context.update(_summary(user=request.user, project=project, tab=tab))
    return render(request, "projects/detail.html", context, status=400 if problems else 200)


@login_required
@require_POST
def board_status(request: PageRequest, pk: int, task_id: int) -> HttpResponse:
    """Move a board card to another status through task_update, then move the card on the page."""
    project = project_or_404(user=request.user, project_id=pk)
    task = task_or_404(user=request.user, task_id=task_id)
    if task.project_id != project.pk:
        raise Http404(f"Task {task_id} is not in project {project.key}.")
    tab = request.POST.get("tab", "overview")
    tab = tab if tab in TABS else "overview"
    status = request.POST.get("status", "")
    try:
        project_require_writer(user=request.user, project=project)
        if status not in Task.Status.values:
            raise InvalidInput(f"status: {status!r} is not one of {', '.join(Task.Status.values)}.", field="status")
        task = task_update(actor=request.user, task=task, status=status)
    except (Forbidden, InvalidInput, NotFound) as exc:  # NotFound: deleted by another request meanwhile
        return refusal(request, exc)
    if not request.htmx:
        return redirect(f"{reverse('project-detail', args=[project.pk])}?{urlencode({'tab': tab, 'view': 'board'})}")
    context = {
        "project": project, "task": task, "tab": tab, "can_write": True,
        **_board_context(user=request.user, project=project, tab=tab, view="board"),
    }
    context.update(_summary(user=request.user, project=project, tab=tab))
    moved = ("projects/detail.html#card_moved",) if task in context["tasks"] else ()
    # The main answer is empty: it removes the card from its old column; the card reappears in its new one.
    return render_partial(request, None, context,
                          oob=(*moved, "projects/detail.html#column_counts", "projects/detail.html#summary"))
