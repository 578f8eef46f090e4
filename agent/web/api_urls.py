"""Routes of the assistant API."""
from django.urls import path

from pm_assistant.api import method_routes

from .api import RunConfirmApi, RunDetailApi, RunRequestApi, RunTraceApi, RunUndoApi
from .conversation_api import ConversationDeleteApi, ConversationDetailApi, ConversationListApi, ConversationRenameApi
from .stop_api import RunStopApi

urlpatterns = [
    path("requests/", RunRequestApi.as_view(), name="assistant-request"),
    path("runs/<uuid:run_id>/", RunDetailApi.as_view(), name="assistant-run"),
    path("runs/<uuid:run_id>/confirm/", RunConfirmApi.as_view(), name="assistant-confirm"),
    path("runs/<uuid:run_id>/undo/", RunUndoApi.as_view(), name="assistant-undo"),
    path("runs/<uuid:run_id>/trace/", RunTraceApi.as_view(), name="assistant-trace"),
    path("conversations/", ConversationListApi.as_view(), name="assistant-conversations"),
    path("conversations/<uuid:conversation_id>/",
         method_routes(get=ConversationDetailApi, patch=ConversationRenameApi, delete=ConversationDeleteApi),
         name="assistant-conversation"),
    path("runs/<uuid:run_id>/stop/", RunStopApi.as_view(), name="assistant-stop"),
]
