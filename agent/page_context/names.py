"""Look up the names a ModelSummary mentions, scoped to the user."""
from __future__ import annotations

from collections.abc import Mapping

from pm_assistant.vocabulary import task_key as key_of
from projects.selectors import AnyUser, project_list_for_user, user_list_sharing_a_project_with
from tasks.selectors import TaskName, task_list_for_user

from .schema import EntityNames, PageContext


def entity_names_for(*, context: PageContext, user: AnyUser, task_names: Mapping[int, TaskName] | None = None,
                     project_names: Mapping[int, str] | None = None) -> EntityNames:
    """Return the project name, selected task's title and key, and filtered assignee's name.

    ``task_names`` and ``project_names`` are tasks and projects already read for this user (the page
    context's check): a selected task or named project among them is not read again.
    """
    project_id = context.route_params.project_id
    if context.selected_entity and context.selected_entity.type == "project":
        project_id = context.selected_entity.id
    task_title = task_key = project_name = None
    if context.selected_entity and context.selected_entity.type == "task":
        # The task's title and its project's name and key in one read, unless the page context's check read them.
        row = (task_names or {}).get(context.selected_entity.id) or (
            task_list_for_user(user=user).filter(pk=context.selected_entity.id)
            .values_list("title", "project_id", "project__name", "project__key").first())
        if row is not None:
            task_title, task_project_id, task_project_name, project_key = row
            task_key = key_of(project_key, context.selected_entity.id)
            project_id = project_id or task_project_id
            if project_id == task_project_id:
                project_name = task_project_name
    if project_id and project_name is None:
        project_name = (project_names or {}).get(project_id) or (project_list_for_user(user=user, include_archived=True)
                        .filter(pk=project_id).values_list("name", flat=True).first())
    assignee_name = None
    if isinstance(context.filters.assignee, int):
        assignee_name = (user_list_sharing_a_project_with(user=user).filter(pk=context.filters.assignee)
                         .values_list("username", flat=True).first())
    return EntityNames(project_name=project_name, task_title=task_title, task_key=task_key,
                       assignee_name=assignee_name)
