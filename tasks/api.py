"""REST API for tasks: one class per operation, reads through selectors, writes through services."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from pm_assistant.api import AuthenticatedApi, acting_user
from pm_assistant.errors import InvalidInput, NotFound
from pm_assistant.vocabulary import PAGE_NUMBER_MAX, PAGE_SIZE_DEFAULT
from projects.models import Project
from projects.selectors import project_get_for_user, project_member_get, project_require_writer
from projects.serializers import error_responses

from .counts import task_list_count
from .filters import TaskFilters, TaskFilterSerializer
from .models import Task
from .paging import Cursor, TaskPage, task_page
from .selectors import task_get_for_user, task_list_for_user
from .serializers import (
    PageParamsSerializer,
    SubtaskSerializer,
    TaskCreateFields,
    TaskOutputFields,
    TaskWriteFields,
    page_of,
)
from .services import task_create, task_delete, task_update

# Query parameters the list understands besides the filters; ``format`` is DRF's renderer switch.
_LIST_EXTRA_PARAMS = {"page", "cursor", "page_size", "format"}


def _reject_unknown_params(request: Request, allowed: set[str]) -> None:
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        raise serializers.ValidationError({key: ["Unknown query parameter."] for key in unknown})


def _page(*, request: Request, queryset: QuerySet[Task], filters: TaskFilters,
          ) -> tuple[TaskPage, dict[str, str | None]]:
    """Return one page of the queryset (the user's tasks with these filters) and its links, refusing a
    bad page, cursor or page size by name before anything is read."""
    params = PageParamsSerializer(data=request.query_params)
    params.is_valid(raise_exception=True)
    data = params.validated_data
    page = task_page(queryset, page_size=data.get("page_size", PAGE_SIZE_DEFAULT), page=data.get("page", 1),
                     cursor=data.get("cursor"),
                     count=task_list_count(user=request.user, filters=filters, tasks=queryset))
    here = remove_query_param(request.build_absolute_uri(), "page")

    def link(cursor: Cursor | None) -> str | None:
        return replace_query_param(here, "cursor", str(cursor)) if cursor else None

    return page, {"next": link(page.next), "previous": link(page.previous), "last": link(page.last)}


def _resolve_references(*, user: User, project: Project, data: dict[str, Any]) -> dict[str, Any]:
    """Turn the ids of assignee and parent into objects the user may reference."""
    if data.get("assignee") is not None:
        member = project_member_get(project=project, user_id=data["assignee"])
        if member is None:
            raise InvalidInput(f"assignee: user {data['assignee']} is not a member of this project.",
                               field="assignee")
        data["assignee"] = member
    if data.get("parent") is not None:
        try:
            data["parent"] = task_get_for_user(user=user, task_id=data["parent"])
        except NotFound:
            raise InvalidInput(f"parent: task {data['parent']} was not found.", field="parent") from None
    return data


class TaskListApi(AuthenticatedApi):
    class OutputSerializer(TaskOutputFields):
        class Meta:
            ref_name = "TaskListItem"

    PageSerializer = page_of(OutputSerializer, ref_name="TaskPage")

    @extend_schema(
        operation_id="tasks_list",
        summary="List the tasks of your projects, filtered and paginated",
        description="Ordered by due date (tasks without one last), then id. The first "
                    f"{PAGE_NUMBER_MAX} pages may be asked for by `page`; `next`, `previous` and `last` are "
                    "cursor links that cost the same on any page, so walk them for the rest. A malformed "
                    "cursor is a 400 naming `cursor`.",
        parameters=[TaskFilterSerializer, PageParamsSerializer],
        responses={200: PageSerializer, **error_responses(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        _reject_unknown_params(request, set(TaskFilterSerializer().fields) | _LIST_EXTRA_PARAMS)
        filters = TaskFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        chosen = filters.to_filters()
        tasks = task_list_for_user(user=request.user, filters=chosen).prefetch_related("labels")
        page, links = _page(request=request, queryset=tasks, filters=chosen)
        return Response({"count": page.count, **links, "results": self.OutputSerializer(page.items, many=True).data})


class TaskDetailApi(AuthenticatedApi):
    class OutputSerializer(TaskOutputFields):
        subtasks = SubtaskSerializer(many=True, source="subtasks.all")

        class Meta:
            ref_name = "TaskDetail"

    @extend_schema(
        operation_id="tasks_retrieve",
        summary="Show one task with its subtasks",
        responses={200: OutputSerializer, **error_responses(401, 404)},
    )
    def get(self, request: Request, task_id: int) -> Response:
        task = task_get_for_user(user=request.user, task_id=task_id)
        return Response(self.OutputSerializer(task).data)


class TaskCreateApi(AuthenticatedApi):
    class InputSerializer(TaskCreateFields):
        class Meta:
            ref_name = "TaskCreate"

    @extend_schema(
        operation_id="tasks_create",
        summary="Create a task in a project you may write to",
        request=InputSerializer,
        responses={201: TaskDetailApi.OutputSerializer, **error_responses(400, 401, 403, 404, 413, 415)},
    )
    def post(self, request: Request) -> Response:
        user = acting_user(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        project = project_get_for_user(user=user, project_id=data.pop("project"))
        # Viewers learn they cannot write before the references in their input are looked up.
        project_require_writer(user=user, project=project)
        data = _resolve_references(user=user, project=project, data=data)
        task = task_create(actor=user, project=project, **data)
        task = task_get_for_user(user=user, task_id=task.pk)
        return Response(TaskDetailApi.OutputSerializer(task).data, status=status.HTTP_201_CREATED)


class TaskUpdateApi(AuthenticatedApi):
    class InputSerializer(TaskWriteFields):
        class Meta:
            ref_name = "TaskUpdate"

    @extend_schema(
        operation_id="tasks_partial_update",
        summary="Change some fields of a task",
        request=InputSerializer,
        responses={200: TaskDetailApi.OutputSerializer, **error_responses(400, 401, 403, 404, 413, 415)},
    )
    def patch(self, request: Request, task_id: int) -> Response:
        user = acting_user(request)
        task = task_get_for_user(user=user, task_id=task_id)
        # Viewers learn they cannot write before any detail of their input is judged.
        project_require_writer(user=user, project=task.project)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = _resolve_references(user=user, project=task.project, data=dict(serializer.validated_data))
        task_update(actor=user, task=task, **data)
        task = task_get_for_user(user=user, task_id=task.pk)
        return Response(TaskDetailApi.OutputSerializer(task).data)


class TaskDeleteApi(AuthenticatedApi):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        title = serializers.CharField()
        subtasks_deleted = serializers.IntegerField(help_text="Subtasks removed with the task.")

        class Meta:
            ref_name = "TaskDeleted"

    @extend_schema(
        operation_id="tasks_destroy",
        summary="Delete a task and its subtasks",
        responses={
            200: OpenApiResponse(OutputSerializer, description="What was deleted."),
            **error_responses(401, 403, 404),
        },
    )
    def delete(self, request: Request, task_id: int) -> Response:
        user = acting_user(request)
        deleted = task_delete(actor=user, task=task_get_for_user(user=user, task_id=task_id))
        return Response(self.OutputSerializer(deleted).data)
