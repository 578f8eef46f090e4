"""The assistant's HTTP API (docs/DESIGN.md#http-api): one class per operation, all through the run service."""
from __future__ import annotations

from typing import get_args

from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from agent.models import Run
from agent.page_context.openapi import page_context_openapi_schema
from agent.page_context.text import control_character_reason
from agent.registry import CAPABILITIES
from agent.routing.decision import Via
from agent.run.conversations import conversation_for_request
from agent.run.service import run_confirm, run_get, run_request
from agent.run.undo import run_undo
from pm_assistant.api import AuthenticatedApi
from pm_assistant.vocabulary import MESSAGE_MAX_CHARS
from projects.serializers import StrictInputSerializer, error_responses

from .run_shapes import run_as_dict, trace_as_dict


def _message_text(value: str) -> None:
    """Refuse control characters in a message; line breaks and tabs are fine."""
    reason = control_character_reason(value, allow="\t\n\r")
    if reason is not None:
        raise serializers.ValidationError(reason)


@extend_schema_field(page_context_openapi_schema())
class PageContextField(serializers.DictField):
    """The page context, checked in full by agent.page_context.parse (the schema shows its shape)."""


# The run as agent.web.run_shapes.run_as_dict writes it.
RUN_SCHEMA = inline_serializer("AssistantRun", {
    "run_id": serializers.UUIDField(),
    "conversation_id": serializers.UUIDField(allow_null=True),
    "status": serializers.ChoiceField(Run.Status.values),
    "route": inline_serializer("AssistantRoute", {
        "capability": serializers.ChoiceField([spec.name for spec in CAPABILITIES]),
        "via": serializers.ChoiceField(list(get_args(Via))),
    }, allow_null=True),
    "reply": serializers.CharField(help_text="Markdown; user text in it is escaped."),
    "error_code": serializers.CharField(allow_blank=True),
    "data": serializers.DictField(),
    "confirmation": inline_serializer("AssistantConfirmation", {
        "id": serializers.UUIDField(help_text="Send it back as confirmation_id with the decision."),
        "action": serializers.CharField(),
        "facts": serializers.DictField(help_text="Read from the database when the card was made."),
        "steps": serializers.ListField(child=serializers.DictField(), required=False,
                                       help_text="A plan card's steps (decompose only)."),
    }, allow_null=True),
    "usage": inline_serializer("AssistantUsage", {
        "llm_calls": serializers.IntegerField(), "prompt_tokens": serializers.IntegerField(),
        "completion_tokens": serializers.IntegerField(),
    }),
    "progress": inline_serializer("AssistantProgress", {
        "stage": serializers.CharField(), "done": serializers.IntegerField(), "total": serializers.IntegerField(),
    }, allow_null=True),
    "undo_until": serializers.DateTimeField(allow_null=True, help_text="Until when POST .../undo/ restores what "
                                            "the run changed; null when it changed nothing that can be undone."),
    "undone_at": serializers.DateTimeField(allow_null=True),
})


class RunRequestApi(AuthenticatedApi):
    class RunRequestInputSerializer(StrictInputSerializer):
        message = serializers.CharField(required=False, allow_blank=False, max_length=MESSAGE_MAX_CHARS,
                                        validators=[_message_text])
        action = serializers.CharField(required=False, allow_blank=False, max_length=40)
        page_context = PageContextField(help_text="The PageContext of docs/DESIGN.md#page-context (camelCase keys).")
        conversation_id = serializers.UUIDField(required=False, help_text="Continue this conversation; "
                                                "without it the run starts a new one.")

    @extend_schema(request=RunRequestInputSerializer,
                   responses={200: RUN_SCHEMA, **error_responses(400, 401, 403, 404, 413, 415)},
                   summary="Send a message or a quick action to the assistant")
    def post(self, request: Request) -> Response:
        data = self.RunRequestInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        conversation = conversation_for_request(user=request.user,  # type: ignore[arg-type]
                                                conversation_id=data.validated_data.get("conversation_id"))
        run = run_request(user=request.user, page_context=data.validated_data["page_context"],  # type: ignore[arg-type]
                          message=data.validated_data.get("message"), action=data.validated_data.get("action"),
                          conversation=conversation)
        return Response(run_as_dict(run))


class RunConfirmApi(AuthenticatedApi):
    class RunConfirmInputSerializer(StrictInputSerializer):
        decision = serializers.ChoiceField(choices=["approve", "reject"])
        drop_steps = serializers.ListField(child=serializers.CharField(max_length=10), required=False,
                                           max_length=50, help_text="Plan steps to leave out (a plan card only).")
        confirmation_id = serializers.UUIDField(
            required=False,
            help_text="The `confirmation.id` of the card decided on; 409 when the run has asked again since.")

    @extend_schema(request=RunConfirmInputSerializer,
                   responses={200: RUN_SCHEMA, **error_responses(400, 401, 403, 404, 409, 413, 415)},
                   summary="Approve or reject a pending action")
    def post(self, request: Request, run_id: str) -> Response:
        data = self.RunConfirmInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        run = run_confirm(user=request.user, run_id=run_id, decision=data.validated_data["decision"],  # type: ignore[arg-type]
                          drop_steps=data.validated_data.get("drop_steps"),
                          confirmation_id=str(data.validated_data["confirmation_id"])
                          if "confirmation_id" in data.validated_data else None)
        return Response(run_as_dict(run))


class RunUndoApi(AuthenticatedApi):
    class RunUndoInputSerializer(StrictInputSerializer):
        """No fields: the run is in the path."""

    @extend_schema(request=RunUndoInputSerializer,
                   responses={200: RUN_SCHEMA, **error_responses(400, 401, 403, 404, 409, 410, 413, 415)},
                   summary="Undo the task updates of a run",
                   description="Restores the values the run's updates replaced, taken from the activity log, "
                               "if nothing changed them since; otherwise 409 `changed_since` names what changed "
                               "and nothing is restored. Owner only; single use (409 `already_undone`); "
                               "409 `not_undoable` for a run that changed nothing or created or deleted tasks; "
                               "410 `undo_expired` after UNDO_WINDOW_SECONDS.")
    def post(self, request: Request, run_id: str) -> Response:
        self.RunUndoInputSerializer(data=request.data).is_valid(raise_exception=True)
        return Response(run_as_dict(run_undo(user=request.user, run_id=run_id)))  # type: ignore[arg-type]


class RunDetailApi(AuthenticatedApi):
    @extend_schema(responses={200: RUN_SCHEMA, **error_responses(401, 404)}, summary="Read a run")
    def get(self, request: Request, run_id: str) -> Response:
        return Response(run_as_dict(run_get(user=request.user, run_id=run_id)))  # type: ignore[arg-type]


class RunTraceApi(AuthenticatedApi):
    @extend_schema(responses={200: inline_serializer("AssistantTrace", {
        "run_id": serializers.UUIDField(), "nodes": serializers.ListField(), "llm_calls": serializers.ListField(),
        "tool_calls": serializers.ListField(), "bindings": serializers.ListField(),
        "alerts": serializers.ListField(), "events": serializers.ListField(), "audit": serializers.DictField()}),
        **error_responses(401, 404)},
        summary="Read a run's trace")
    def get(self, request: Request, run_id: str) -> Response:
        return Response(trace_as_dict(run_get(user=request.user, run_id=run_id)))  # type: ignore[arg-type]
