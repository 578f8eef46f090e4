"""API routes for tasks, mounted at /api/: one API class per operation, routed by method."""
from django.urls import path

from pm_assistant.api import method_routes

from .api import TaskCreateApi, TaskDeleteApi, TaskDetailApi, TaskListApi, TaskUpdateApi

urlpatterns = [
    path("tasks/", method_routes(get=TaskListApi, post=TaskCreateApi), name="api-task-list"),
    path(
        "tasks/<int:task_id>/",
        method_routes(get=TaskDetailApi, patch=TaskUpdateApi, delete=TaskDeleteApi),
        name="api-task-detail",
    ),
]
