"""The conversations API (docs/DESIGN.md#http-api): the user's recent conversations, and one with its runs in order."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from agent.page_context.text import control_character_reason
from agent.run.conversations import (
    SEARCH_MAX_CHARS,
    TITLE_FIELD_MAX,
    conversation_as_dict,
    conversation_delete,
    conversation_get,
    conversation_page_for_user,
    conversation_rename,
    conversation_runs,
)
from pm_assistant.api import AuthenticatedApi, acting_user
from pm_assistant.one_line import one_line
from projects.serializers import StrictInputSerializer, error_responses

from .api import RUN_SCHEMA
from .run_shapes import run_as_dict


def _plain_text(value: str) -> None:
    """Refuse control characters (line breaks included) in a title or a search."""
    reason = control_character_reason(value, allow="")
    if reason is not None:
        raise serializers.ValidationError(reason)


class ConversationSearchSerializer(StrictInputSerializer):
    search = serializers.CharField(required=False, allow_blank=True, max_length=SEARCH_MAX_CHARS,
                                   validators=[_plain_text],
                                   help_text="Keep conversations whose title or messages contain it.")
    offset = serializers.IntegerField(required=False, min_value=0, max_value=1_000_000, default=0,
                                      help_text="Skip this many (the list's next_offset, for older ones).")


class ConversationRenameSerializer(StrictInputSerializer):
    title = serializers.CharField(max_length=TITLE_FIELD_MAX, validators=[_plain_text])

    def validate_title(self, value: str) -> str:
        """Store the title without bidi and zero-width controls; one made of nothing else is blank."""
        title = one_line(value)
        if not title:
            raise serializers.ValidationError("This field may not be blank.")
        return title


_CONVERSATION_FIELDS: dict[str, serializers.Field] = {
    "conversation_id": serializers.UUIDField(),
    "title": serializers.CharField(allow_blank=True),
    "label": serializers.CharField(help_text="The title, numbered when listed conversations share it."),
    "created_at": serializers.DateTimeField(),
    "updated_at": serializers.DateTimeField(),
    "run_count": serializers.IntegerField(),
    "pending_confirmations": serializers.IntegerField(help_text="Runs still waiting for the user's decision."),
}
CONVERSATION_SCHEMA = inline_serializer("AssistantConversation", _CONVERSATION_FIELDS)
CONVERSATION_DETAIL_SCHEMA = inline_serializer("AssistantConversationDetail", {
    **_CONVERSATION_FIELDS, "runs": RUN_SCHEMA.__class__(many=True)})


class ConversationListApi(AuthenticatedApi):
    @extend_schema(parameters=[ConversationSearchSerializer], responses={200: inline_serializer(
        "AssistantConversationList", {
            "results": CONVERSATION_SCHEMA.__class__(many=True),
            "count": serializers.IntegerField(help_text="How many there are in all (matching the search)."),
            "next_offset": serializers.IntegerField(allow_null=True,
                                                    help_text="The offset of the older ones; null: none.")}),
        # 404: an unknown ?format= (the API's renderer choice), as on every list.
        **error_responses(400, 401, 404)},
        operation_id="assistant_conversations_list", summary="List the user's recent conversations, newest first")
    def get(self, request: Request) -> Response:
        query = ConversationSearchSerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        offset = query.validated_data.get("offset", 0)
        conversations, total = conversation_page_for_user(user=acting_user(request), offset=offset,
                                                          search=query.validated_data.get("search", ""))
        shown = offset + len(conversations)
        return Response({"results": [conversation_as_dict(c) for c in conversations], "count": total,
                         "next_offset": shown if shown < total else None})


class ConversationRenameApi(AuthenticatedApi):
    @extend_schema(request=ConversationRenameSerializer,
                   responses={200: CONVERSATION_SCHEMA, **error_responses(400, 401, 404, 413, 415)},
                   summary="Rename one of the user's conversations",
                   description="Anyone else's conversation is not found (404). A blank title is refused (400).")
    def patch(self, request: Request, conversation_id: str) -> Response:
        data = ConversationRenameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = conversation_rename(user=acting_user(request), conversation_id=conversation_id,
                                           title=data.validated_data["title"])
        return Response(conversation_as_dict(conversation))


class ConversationDeleteApi(AuthenticatedApi):
    @extend_schema(request=None, responses={204: None, **error_responses(401, 404)},
                   summary="Delete one of the user's conversations",
                   description="Its runs are kept (their traces are the audit record) but belong to no "
                               "conversation any more. Anyone else's conversation is not found (404).")
    def delete(self, request: Request, conversation_id: str) -> Response:
        conversation_delete(user=acting_user(request), conversation_id=conversation_id)
        return Response(status=204)


class ConversationDetailApi(AuthenticatedApi):
    @extend_schema(responses={200: CONVERSATION_DETAIL_SCHEMA, **error_responses(401, 404)},
                   summary="Read a conversation with its runs, oldest first")
    def get(self, request: Request, conversation_id: str) -> Response:
        conversation = conversation_get(user=acting_user(request), conversation_id=conversation_id)
        runs = conversation_runs(conversation=conversation, limit=None)
        return Response({**conversation_as_dict(conversation), "runs": [run_as_dict(run) for run in runs]})
