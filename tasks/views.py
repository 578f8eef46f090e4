"""Task pages: the home workbench, the task list, task detail with in-place edits, and task create."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import push_url, reswap, retarget

from pm_assistant.errors import Forbidden, InvalidInput, NotFound
from pm_assistant.vocabulary import HOME_PROJECTS_MAX, ID_MAX, PAGE_SIZES
from pm_assistant.web import PageRequest, form_error, refusal, render_partial
from projects.models import Project
from projects.selectors import (
    project_ids_writable_for_user,
    project_list_for_user,
    project_progress_for_user,
    project_require_writer,
)
from projects.shortcuts import can_write, project_or_404

from .counts import task_list_count
from .forms import (
    INLINE_FIELDS,
    TaskCreateForm,
    TaskFieldForm,
    parse_task_list_params,
    people_for_user,
    query_without_blanks,
)
from .models import Task
from .page_context import page_context_for
from .paging import LAST, task_page
from .selectors import task_activity_for_task, task_list_for_user, task_subtask_summary, workbench_for_user
from .services import task_create as create_task
from .services import task_update
from .shortcuts import task_or_404

# Labels of the fields the detail page edits in place.
_FIELD_LABELS = {name: name.replace("_", " ").capitalize() for name in INLINE_FIELDS}


@login_required
@require_GET
def home(request: PageRequest) -> HttpResponse:
    """Show my open, overdue and due-this-week tasks and every project's progress."""
    workbench = workbench_for_user(user=request.user)
    context = {
        "nav": "home",
        "workbench": workbench,
        "yesterday": workbench["today"] - timedelta(days=1),
        "progress": project_progress_for_user(user=request.user, limit=HOME_PROJECTS_MAX),
        "page_context": page_context_for(page="home"),
    }
    return render(request, "home.html", context)


def _filter_form_values(request: PageRequest) -> dict[str, Any]:
    # Echo what the user typed, valid or not, so a bad value can be seen and fixed in place.
    get = request.GET

    def many(name: str) -> list[str]:
        return [part for value in get.getlist(name) for part in value.split(",") if part]

    return {
        "status": many("status"), "priority": many("priority"),
        "assignee": get.get("assignee", ""), "due_after": get.get("due_after", ""),
        "due_before": get.get("due_before", ""), "labels": get.get("labels", ""),
        "project": get.get("project", ""), "search": get.get("search", ""),
    }


@login_required
@require_GET
def task_list(request: PageRequest) -> HttpResponse:
    """List the tasks of the user's projects, filtered and paginated by the query string."""
    params = parse_task_list_params(request.GET)
    page_obj, errors = None, dict(params.errors)
    if not errors:
        tasks_qs = task_list_for_user(user=request.user, filters=params.filters)
        count = task_list_count(user=request.user, filters=params.filters, tasks=tasks_qs)
        try:
            page_obj = task_page(tasks_qs, page_size=params.page_size, page=params.page, cursor=params.cursor,
                                 count=count)
        except NotFound:
            # A page number past the end (an old link): the last page, with a word about it.
            page_obj = task_page(tasks_qs, page_size=params.page_size, cursor=LAST, count=count)
            errors["page"] = [f"there is no page {params.page}; the last page, {page_obj.num_pages}, is shown."]
    tasks = page_obj.items if page_obj else []
    query = query_without_blanks(request.GET)
    roots = {name: name.split(".")[0].split("[")[0] for name in errors}
    error_list = [
        (roots[name], ", ".join(request.GET.getlist(roots[name])), reasons[0]) for name, reasons in errors.items()
    ]
    context = {
        "nav": "tasks",
        "tasks": tasks,
        "page_obj": page_obj,
        "query": query,
        "errors": {roots[name]: reasons for name, reasons in errors.items()},
        "error_list": error_list,
        "values": _filter_form_values(request),
        "statuses": Task.Status.choices,
        "priorities": Task.Priority.choices,
        "people": people_for_user(user=request.user),
        "projects": project_list_for_user(user=request.user, include_archived=True),
        "writable_project_ids": project_ids_writable_for_user(user=request.user),
        "page_sizes": PAGE_SIZES,
        "page_size": params.page_size,
        "page_context": page_context_for(
            page="task_list",
            project_id=params.filters.project_id,
            filters=params.filters,
            visible_entity_ids=[t.pk for t in tasks],
            page_number=page_obj.number if page_obj else params.page,
            page_size=params.page_size,
        ),
    }
    status = 400 if errors else 200
    if request.htmx and request.htmx.target == "task-results":
        response = render_partial(request, "tasks/list.html#results", context, status=status)
        # The address bar shows only the filters that are set, not every empty field of the form.
        return push_url(response, f"{request.path}?{query.urlencode()}".rstrip("?"))
    return render(request, "tasks/list.html", context, status=status)


def _detail_context(request: PageRequest, task: Task, **extra: Any) -> dict[str, Any]:
    return {
        "nav": "tasks",
        "task": task,
        # For the assistant's buttons that make no sense in some status (agent.templatetags.assistant).
        "selected_status": task.status,
        "can_write": can_write(user=request.user, project=task.project),
        "fields": [(name, _FIELD_LABELS[name]) for name in INLINE_FIELDS],
        "activity": task_activity_for_task(task=task, limit=30),
        "subtasks": task_subtask_summary(task=task),
        "labels": [label.name for label in task.labels.all()],
        "page_context": page_context_for(
            page="task_detail", selected_entity=("task", task.pk), task_id=task.pk, project_id=task.project_id,
        ),
        **extra,
    }


@login_required
@require_GET
def task_detail(request: PageRequest, pk: int) -> HttpResponse:
    """Show one task with its activity; members edit its fields in place."""
    task = task_or_404(user=request.user, task_id=pk)
    context = _detail_context(request, task)
    editing = request.GET.get("edit")
    if editing in INLINE_FIELDS and context["can_write"]:
        context.update(editing=editing, form=TaskFieldForm(task=task, name=editing))
    return render(request, "tasks/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def task_field(request: PageRequest, pk: int, name: str) -> HttpResponse:
    """Show the editor of one field (GET) or save it through task_update (POST)."""
    task = task_or_404(user=request.user, task_id=pk)
    if name not in INLINE_FIELDS:
        raise Http404(f"Tasks have no editable field {name!r}.")
    detail_url = reverse("task-detail", args=[task.pk])
    if request.method == "GET" and "cancel" in request.GET:
        context = _detail_context(request, task, name=name, label=_FIELD_LABELS[name])
        return render(request, "tasks/detail.html#field_row", context)
    try:
        project_require_writer(user=request.user, project=task.project)
    except Forbidden as exc:
        return refusal(request, exc)
    if request.method == "GET":
        if not request.htmx:
            return redirect(f"{detail_url}?edit={name}")
        form = TaskFieldForm(task=task, name=name)
        return render(request, "tasks/detail.html#field_form", _detail_context(request, task, form=form))
    form = TaskFieldForm(request.POST, task=task, name=name)
    if form.is_valid():
        try:
            task = task_update(actor=request.user, task=task, **{name: form.cleaned_data[name]})
        except InvalidInput as exc:
            form_error(form, exc, field=name if exc.field in (name, None) else None)
        except (Forbidden, NotFound) as exc:  # the role or the task changed since the form was read
            return refusal(request, exc)
    if form.errors:
        context = _detail_context(request, task, form=form, editing=name)
        if not request.htmx:
            return render(request, "tasks/detail.html", context, status=400)
        response = render(request, "tasks/detail.html#field_form", context, status=400)
        return reswap(retarget(response, f"#field-{name}"), "outerHTML")
    if not request.htmx:
        return redirect(detail_url)
    # Every field is redrawn: one change can move another (status "done" sets progress to 100).
    return render_partial(request, None, _detail_context(request, task),
                          oob=("tasks/detail.html#fields", "tasks/detail.html#updated_row",
                               "tasks/detail.html#activity"))


def _create_project(request: PageRequest) -> tuple[Project | None, str]:
    raw = (request.POST if request.method == "POST" else request.GET).get("project", "").strip()
    if not raw:
        return None, ""
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19 or int(raw) > ID_MAX:
        return None, f"project: {raw[:40]!r} is not a project id."
    return project_or_404(user=request.user, project_id=int(raw)), ""


@login_required
@require_http_methods(["GET", "POST"])
def task_create(request: PageRequest) -> HttpResponse:
    """Create a task in one of the user's projects through task_create."""
    project, problem = _create_project(request)
    if project is not None:
        try:
            project_require_writer(user=request.user, project=project)
        except Forbidden as exc:
            return refusal(request, exc)
    data = request.POST if request.method == "POST" and not problem else None
    # A bad project value leaves the form unbound (nothing is checked or saved): the page says why.
    form = TaskCreateForm(data, user=request.user, project=project)
    if data is not None and form.is_valid():
        cleaned = {k: v for k, v in form.cleaned_data.items() if v is not None}
        try:
            task = create_task(actor=request.user, **cleaned)
        except InvalidInput as exc:
            form_error(form, exc, field=exc.field if exc.field in form.fields else None)
        else:
            return redirect("task-detail", pk=task.pk)
    context = {
        "nav": "tasks",
        "form": form,
        "problem": problem,
        "project": project,
        "page_context": page_context_for(
            page="task_list",
            project_id=project.pk if project else None,
        ),
    }
    status = 400 if form.errors or problem else 200
    if request.htmx and request.htmx.target == "task-form":
        return render_partial(request, "tasks/create.html#form", context, status=status)
    return render(request, "tasks/create.html", context, status=status)
