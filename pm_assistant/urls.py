"""Top-level URL configuration."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from pm_assistant.health import healthz
from pm_assistant.http_handlers import not_found

handler404 = "pm_assistant.http_handlers.not_found"
handler500 = "pm_assistant.http_handlers.server_error"

urlpatterns = [
    # For load balancers and docker compose: no login, no redirect to HTTPS (SECURE_REDIRECT_EXEMPT).
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Read-only pages: GET and HEAD (Swagger UI's page cannot render an OPTIONS answer).
    path("api/schema/", SpectacularAPIView.as_view(http_method_names=["get", "head"]), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema", http_method_names=["get", "head"]),
         name="api-docs"),
    path("api/", include("projects.api_urls")),
    path("api/", include("tasks.api_urls")),
    path("api/assistant/", include("agent.web.api_urls")),
    # Any other /api/ path is a JSON 404 even with DEBUG on (handler404 only answers when it is off), for
    # every method (a POST without a CSRF token too). Only paths ending in a slash: without one,
    # APPEND_SLASH still redirects /api/tasks to /api/tasks/.
    re_path(r"^api/.*/$", csrf_exempt(not_found)),
    path("assistant/", include("agent.web.urls")),
    path("", include("reports.urls")),
    path("", include("tasks.urls")),
]
