"""Routes of the task pages, the project pages (they show tasks) and the home workbench."""
from django.urls import path

from . import project_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("tasks/", views.task_list, name="task-list"),
    path("tasks/new/", views.task_create, name="task-create"),
    path("tasks/<int:pk>/", views.task_detail, name="task-detail"),
    path("tasks/<int:pk>/fields/<str:name>/", views.task_field, name="task-field"),
    path("projects/", project_views.project_list, name="project-list"),
    path("projects/<int:pk>/", project_views.project_detail, name="project-detail"),
    path("projects/<int:pk>/tasks/<int:task_id>/status/", project_views.board_status, name="project-board-status"),
]
