"""Forms and query-parameter parsing for the task pages; domain rules stay in tasks.services."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import QueryDict

from pm_assistant.errors import validation_payload
from pm_assistant.vocabulary import DATE_MAX, DATE_MIN, PAGE_SIZE_DEFAULT
from projects.models import Membership, Project
from projects.selectors import AnyUser, project_ids_writable_for_user, project_list_for_user, project_members

from .filters import TaskFilters, TaskFilterSerializer
from .models import Task
from .paging import Cursor
from .serializers import PageParamsSerializer

User = get_user_model()
# Fields the task detail page edits in place, in display order.
INLINE_FIELDS = ("title", "status", "priority", "assignee", "start_date", "due_date", "progress", "description")


@dataclass(frozen=True)
class TaskListParams:
    filters: TaskFilters = field(default_factory=TaskFilters)
    page: int = 1
    cursor: Cursor | None = None
    page_size: int = PAGE_SIZE_DEFAULT
    errors: dict[str, list[str]] = field(default_factory=dict)


def query_without_blanks(query: QueryDict) -> QueryDict:
    """Return the query without empty values."""
    # A submitted filter form sends every field, empty ones included: empty means "not filtered".
    cleaned = QueryDict(mutable=True)
    for key in query:
        values = [v for v in query.getlist(key) if v.strip()]
        if values:
            cleaned.setlist(key, values)
    return cleaned


def parse_task_list_params(query: QueryDict) -> TaskListParams:
    """Parse the task list's query string; errors name the parameter and the reason."""
    data = query_without_blanks(query)
    filter_ser = TaskFilterSerializer(data=data)
    page_ser = PageParamsSerializer(data=data)
    filters_ok, page_ok = filter_ser.is_valid(), page_ser.is_valid()
    if filters_ok and page_ok:
        page = page_ser.validated_data
        return TaskListParams(
            filters=filter_ser.to_filters(),
            page=page.get("page", 1),
            cursor=page.get("cursor"),
            page_size=page.get("page_size", PAGE_SIZE_DEFAULT),
        )
    payload = validation_payload({**filter_ser.errors, **page_ser.errors})
    page_size = page_ser.validated_data.get("page_size", PAGE_SIZE_DEFAULT) if page_ok else PAGE_SIZE_DEFAULT
    return TaskListParams(page_size=page_size, errors=payload["fields"])


def people_for_user(*, user: AnyUser) -> list[AbstractBaseUser]:
    """Return everyone who shares a project with the user, sorted by username (one query, however many projects)."""
    projects = project_list_for_user(user=user, include_archived=True)
    shared = User.objects.filter(pk__in=Membership.objects.filter(project__in=projects).values("user_id"))
    return sorted(shared, key=lambda u: u.get_username().lower())


def _member_users(project: Project | None) -> Any:
    if project is None:
        return User.objects.none()
    return User.objects.filter(pk__in=project_members(project=project).values("user")).order_by("username")


class _UserChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return obj.get_full_name() or obj.get_username()


def _date_field(label: str) -> forms.DateField:
    # The browser's picker offers only the dates tasks.services accepts (DATE_MIN..DATE_MAX).
    return forms.DateField(label=label, required=False, widget=forms.DateInput(
        attrs={"type": "date", "min": DATE_MIN.isoformat(), "max": DATE_MAX.isoformat()}))


def task_form_fields(*, project: Project | None) -> dict[str, forms.Field]:
    """Return the form fields of a task, the assignee limited to the project's members."""
    return {
        "title": forms.CharField(label="Title", max_length=300),
        "description": forms.CharField(label="Description", required=False,
                                       widget=forms.Textarea(attrs={"rows": 4})),
        "status": forms.ChoiceField(label="Status", choices=Task.Status.choices, initial=Task.Status.TODO),
        "priority": forms.ChoiceField(label="Priority", choices=Task.Priority.choices, initial=Task.Priority.P2),
        "assignee": _UserChoiceField(label="Assignee", queryset=_member_users(project), required=False,
                                     empty_label="Unassigned"),
        "start_date": _date_field("Start date"),
        "due_date": _date_field("Due date"),
        "progress": forms.IntegerField(label="Progress (%)", min_value=0, max_value=100, initial=0,
                                       widget=forms.NumberInput(attrs={"step": 5})),
        "estimate_hours": forms.DecimalField(label="Estimate (hours)", required=False, min_value=0,
                                             max_digits=6, decimal_places=1),
        "labels": forms.CharField(label="Labels", required=False, help_text="Comma separated, e.g. design, api"),
    }


class TaskCreateForm(forms.Form):
    """Everything a new task needs; the project list is the user's projects where they may add tasks."""

    def __init__(self, *args: Any, user: AnyUser, project: Project | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        writable = project_list_for_user(user=user).filter(pk__in=project_ids_writable_for_user(user=user))
        self.fields["project"] = forms.ModelChoiceField(
            label="Project", queryset=writable, empty_label="Choose a project…",
            initial=project.pk if project is not None else None,
        )
        self.fields.update(task_form_fields(project=project))

    def clean_labels(self) -> list[str]:
        return [name.strip() for name in self.cleaned_data["labels"].split(",") if name.strip()]


class TaskFieldForm(forms.Form):
    """One field of an existing task, edited in place."""

    def __init__(self, *args: Any, task: Task, name: str, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {name: getattr(task, "assignee_id" if name == "assignee" else name)})
        super().__init__(*args, **kwargs)
        self.name = name
        self.fields[name] = task_form_fields(project=task.project)[name]
