"""Routes of the report pages."""
from django.urls import path

from . import views

urlpatterns = [
    path("projects/<int:pk>/reports/weekly/", views.weekly_report_project, name="weekly-report"),
    path("reports/weekly/", views.weekly_report_all, name="weekly-report-all"),
    path("projects/<int:pk>/reports/risk/", views.risk_panel, name="risk-panel"),
]
