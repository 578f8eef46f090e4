"""Turn the browser's JSON into a PageContext the user is allowed to have."""
from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from pm_assistant.errors import InvalidInput
from projects.selectors import AnyUser, project_list_for_user, user_list_sharing_a_project_with
from tasks.selectors import TaskName, task_ids_visible_and_deleted

from .schema import PageContext


def _field_path(loc: tuple[int | str, ...], *, unknown_key: bool = False) -> str:
    path = "page_context"
    for index, part in enumerate(loc):
        named_by_user = unknown_key and index == len(loc) - 1
        if isinstance(part, str) and not part.isidentifier() and not named_by_user:
            continue  # pydantic's name of a union member (e.g. "constrained-int"), not a field
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


@dataclass(frozen=True)
class ReadPageContext:
    """The checked context, and the task ids dropped from it because those tasks were deleted."""

    context: PageContext
    dropped_task_ids: tuple[int, ...] = ()
    # The visible tasks' titles and projects, and the named projects' names, read with the check: the
    # summary's names come from here.
    task_names: Mapping[int, TaskName] = dataclasses.field(default_factory=dict)
    project_names: Mapping[int, str] = dataclasses.field(default_factory=dict)


def page_context_read(*, data: Any, user: AnyUser) -> ReadPageContext:
    """Validate the payload, drop ids of deleted tasks from the page's lists, and check the rest is visible.

    A page open in another tab may still list a task deleted since from one of the user's projects:
    its id is dropped from visibleEntityIds and selectedEntity, and the caller tells the page to
    refresh. Any other id the user cannot see is a 400, worded alike whether a task of someone else's
    project has it or no task ever had: the answer tells nothing about tasks the user cannot see.
    """
    context = _parse_shape(data=data)
    visible, deleted = task_ids_visible_and_deleted(user=user, ids=sorted(_task_ids(context)))
    context, dropped = _drop_deleted_tasks(context, deleted)
    project_names = _check_visible(context=context, user=user, visible=visible.keys())
    return ReadPageContext(context, dropped, visible, project_names)


def _task_ids(context: PageContext) -> set[int]:
    ids = set(context.visible_entity_ids)
    if context.selected_entity is not None and context.selected_entity.type == "task":
        ids.add(context.selected_entity.id)
    if context.route_params.task_id:
        ids.add(context.route_params.task_id)
    return ids


def _parse_shape(*, data: Any) -> PageContext:
    """Validate the payload's shape: types, enums, sizes and keys."""
    if not isinstance(data, dict):
        raise InvalidInput("page_context: must be an object.", field="page_context")
    try:
        # camelCase is the contract: snake_case spellings of the keys are unknown keys, not synonyms.
        context = PageContext.model_validate(data, by_alias=True, by_name=False)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = _field_path(first["loc"], unknown_key=first["type"] == "extra_forbidden")
        raise InvalidInput(f"{field}: {first['msg']}.", field=field) from None
    return context


def _drop_deleted_tasks(context: PageContext, deleted: set[int]) -> tuple[PageContext, tuple[int, ...]]:
    """Remove the ids of deleted tasks from the visible list and the selection."""
    selected = context.selected_entity
    listed = set(context.visible_entity_ids)
    if selected is not None and selected.type == "task":
        listed.add(selected.id)
    if not listed:
        return context, ()
    gone = listed & deleted
    if not gone:
        return context, ()
    update: dict[str, Any] = {"visible_entity_ids": tuple(i for i in context.visible_entity_ids if i not in gone)}
    if selected is not None and selected.type == "task" and selected.id in gone:
        update["selected_entity"] = None
    return context.model_copy(update=update), tuple(sorted(gone))


def _check_visible(*, context: PageContext, user: AnyUser, visible: Collection[int]) -> dict[int, str]:
    """Refuse an id the user cannot see; return the names of the projects the page names."""
    task_ids: dict[int, str] = {}
    project_ids: dict[int, str] = {}
    if context.selected_entity:
        target = task_ids if context.selected_entity.type == "task" else project_ids
        target[context.selected_entity.id] = "page_context.selectedEntity.id"
    if context.route_params.task_id:
        task_ids.setdefault(context.route_params.task_id, "page_context.routeParams.taskId")
    if context.route_params.project_id:
        project_ids.setdefault(context.route_params.project_id, "page_context.routeParams.projectId")
    for index, task_id in enumerate(context.visible_entity_ids):
        task_ids.setdefault(task_id, f"page_context.visibleEntityIds[{index}]")
    for task_id, field in task_ids.items():
        if task_id not in visible:
            raise InvalidInput(f"{field}: task {task_id} is not visible to you.", field=field)
    mine: dict[int, str] = {}
    if project_ids:
        mine = dict(project_list_for_user(user=user, include_archived=True)
                    .filter(pk__in=list(project_ids)).values_list("pk", "name"))
        for project_id, field in project_ids.items():
            if project_id not in mine:
                raise InvalidInput(f"{field}: project {project_id} is not visible to you.", field=field)
    assignee = context.filters.assignee
    if isinstance(assignee, int) and not user_list_sharing_a_project_with(user=user).filter(pk=assignee).exists():
        field = "page_context.filters.assignee"
        raise InvalidInput(f"{field}: user {assignee} shares no project with you.", field=field)
    return mine
