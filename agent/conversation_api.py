"""The conversations API (docs/DESIGN.md#http-api): the user's recent conversations, and one with its runs in order."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from pm_assistant.api import AuthenticatedApi, acting_user
from projects.serializers import error_responses

from .api import RUN_SCHEMA
from .conversations import conversation_as_dict, conversation_get, conversation_list_for_user, conversation_runs
from .run_shapes import run_as_dict

_CONVERSATION_FIELDS: dict[str, serializers.Field] = {
    "conversation_id": serializers.UUIDField(),
    "title": serializers.CharField(allow_blank=True),
    "created_at": serializers.DateTimeField(),
    "updated_at": serializers.DateTimeField(),
    "run_count": serializers.IntegerField(),
    "pending_confirmations": serializers.IntegerField(help_text="Runs still waiting for the user's decision."),
}
CONVERSATION_SCHEMA = inline_serializer("AssistantConversation", _CONVERSATION_FIELDS)
CONVERSATION_DETAIL_SCHEMA = inline_serializer("AssistantConversationDetail", {
    **_CONVERSATION_FIELDS, "runs": RUN_SCHEMA.__class__(many=True)})


class ConversationListApi(AuthenticatedApi):
    @extend_schema(responses={200: inline_serializer("AssistantConversationList", {
        "results": CONVERSATION_SCHEMA.__class__(many=True)}), **error_responses(401)},
        operation_id="assistant_conversations_list", summary="List the user's recent conversations, newest first")
    def get(self, request: Request) -> Response:
        conversations = conversation_list_for_user(user=acting_user(request))
        return Response({"results": [conversation_as_dict(c) for c in conversations]})


class ConversationDetailApi(AuthenticatedApi):
    @extend_schema(responses={200: CONVERSATION_DETAIL_SCHEMA, **error_responses(401, 404)},
                   summary="Read a conversation with its runs, oldest first")
    def get(self, request: Request, conversation_id: str) -> Response:
        conversation = conversation_get(user=acting_user(request), conversation_id=conversation_id)
        runs = conversation_runs(conversation=conversation, limit=None)
        return Response({**conversation_as_dict(conversation), "runs": [run_as_dict(run) for run in runs]})
