"""Routes of the htmx sidebar."""
from django.urls import path

from . import views

urlpatterns = [
    path("request/", views.sidebar_request, name="assistant-sidebar-request"),
    path("runs/<uuid:run_id>/confirm/", views.sidebar_confirm, name="assistant-sidebar-confirm"),
    path("runs/<uuid:run_id>/", views.sidebar_run, name="assistant-sidebar-run"),
]
