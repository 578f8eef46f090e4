"""REST API for projects: read only, scoped to the projects the user is a member of."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from pm_assistant.api import AuthenticatedApi

from .models import Membership
from .selectors import membership_role, project_get_for_user, project_list_for_user, project_members
from .serializers import MemberSerializer, UserRefSerializer, error_responses


class ProjectListApi(AuthenticatedApi):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        key = serializers.CharField()
        name = serializers.CharField()
        description = serializers.CharField()
        owner = UserRefSerializer()
        archived = serializers.BooleanField()
        created_at = serializers.DateTimeField()

        class Meta:
            ref_name = "ProjectListItem"

    @extend_schema(
        operation_id="projects_list",
        summary="List the projects you are a member of",
        # 404: an unknown ?format= (the API's renderer choice).
        responses={200: OutputSerializer(many=True), **error_responses(401, 404)},
    )
    def get(self, request: Request) -> Response:
        projects = project_list_for_user(user=request.user)
        return Response(self.OutputSerializer(projects, many=True).data)


class ProjectDetailApi(AuthenticatedApi):
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        key = serializers.CharField()
        name = serializers.CharField()
        description = serializers.CharField()
        owner = UserRefSerializer()
        archived = serializers.BooleanField()
        created_at = serializers.DateTimeField()
        updated_at = serializers.DateTimeField()
        role = serializers.ChoiceField(choices=Membership.Role.choices, help_text="Your role in the project.")
        members = MemberSerializer(many=True)

        class Meta:
            ref_name = "ProjectDetail"

    @extend_schema(
        operation_id="projects_retrieve",
        summary="Show one project with its members",
        responses={200: OutputSerializer, **error_responses(401, 404)},
    )
    def get(self, request: Request, project_id: int) -> Response:
        project = project_get_for_user(user=request.user, project_id=project_id)
        data = {
            "id": project.pk,
            "key": project.key,
            "name": project.name,
            "description": project.description,
            "owner": project.owner,
            "archived": project.archived,
            "created_at": project.created_at,
            "updated_at": project.updated_at,
            "role": membership_role(user=request.user, project=project),
            "members": project_members(project=project),
        }
        return Response(self.OutputSerializer(data).data)
