"""API routes for projects, mounted at /api/."""
from django.urls import path

from .api import ProjectDetailApi, ProjectListApi

urlpatterns = [
    path("projects/", ProjectListApi.as_view(), name="api-project-list"),
    path("projects/<int:project_id>/", ProjectDetailApi.as_view(), name="api-project-detail"),
]
