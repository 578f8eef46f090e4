"""Routes of the htmx sidebar."""
from django.urls import path

from agent.web import conversation_views, mention_views, stream_views
from agent.web import sidebar as views
from agent.web import staff_alerts as alert_views
from agent.web import staff_usage as usage_views

urlpatterns = [
    path("alerts/", alert_views.alerts_page, name="assistant-alerts"),
    path("usage/", usage_views.usage_page, name="assistant-usage"),
    path("request/", views.sidebar_request, name="assistant-sidebar-request"),
    path("reassign/", views.sidebar_reassign, name="assistant-sidebar-reassign"),
    path("runs/<uuid:run_id>/confirm/", views.sidebar_confirm, name="assistant-sidebar-confirm"),
    path("runs/<uuid:run_id>/undo/", views.sidebar_undo, name="assistant-sidebar-undo"),
    path("runs/<uuid:run_id>/feedback/", views.sidebar_feedback, name="assistant-sidebar-feedback"),
    path("runs/<uuid:run_id>/", views.sidebar_run, name="assistant-sidebar-run"),
    path("streams/<uuid:token>/", stream_views.sidebar_stream, name="assistant-sidebar-stream"),
    path("mentions/", mention_views.sidebar_mentions, name="assistant-sidebar-mentions"),
    path("conversations/", conversation_views.sidebar_conversation_list, name="assistant-sidebar-conversations"),
    path("conversations/earlier/", conversation_views.sidebar_earlier, name="assistant-sidebar-earlier"),
    path("conversations/new/", conversation_views.sidebar_conversation_new, name="assistant-sidebar-conversation-new"),
    path("conversations/<uuid:conversation_id>/open/", conversation_views.sidebar_conversation_open,
         name="assistant-sidebar-conversation-open"),
    path("conversations/<uuid:conversation_id>/rename/", conversation_views.sidebar_conversation_rename,
         name="assistant-sidebar-conversation-rename"),
    path("conversations/<uuid:conversation_id>/delete/", conversation_views.sidebar_conversation_delete,
         name="assistant-sidebar-conversation-delete"),
]
