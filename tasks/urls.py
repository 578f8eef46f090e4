"""Routes of the task pages and the home workbench."""
from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("tasks/", views.task_list, name="task-list"),
    path("tasks/new/", views.task_create, name="task-create"),
    path("tasks/<int:pk>/", views.task_detail, name="task-detail"),
    path("tasks/<int:pk>/fields/<str:name>/", views.task_field, name="task-field"),
]
