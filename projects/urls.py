"""Routes of the project pages."""
from django.urls import path

from . import views

urlpatterns = [
    path("", views.project_list, name="project-list"),
    path("<int:pk>/", views.project_detail, name="project-detail"),
    path("<int:pk>/tasks/<int:task_id>/status/", views.board_status, name="project-board-status"),
]
