"""REST API for projects: read only, scoped to the projects the user is a member of."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, cast

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Membership
from .selectors import membership_role, project_get_for_user, project_list_for_user, project_members
from .serializers import MemberSerializer, UserRefSerializer, error_responses


class AuthenticatedApi(APIView):
    """Base of every API class: session or token auth, login required.

    Token comes first so an anonymous request gets 401 with a ``WWW-Authenticate`` header
    rather than a bare 403.
    """

    authentication_classes = (TokenAuthentication, SessionAuthentication)
    permission_classes = (IsAuthenticated,)


def acting_user(request: Request) -> User:
    """Return the authenticated user of an API request (the permission check let no one else in)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


class _MethodRoutes(AuthenticatedApi):
    """Hand each HTTP method of one URL to its own API class (see ``method_routes``)."""

    routes: ClassVar[dict[str, Callable[..., HttpResponseBase]]] = {}

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        method = request.method.lower() if request.method else ""
        view = self.routes.get("get" if method == "head" else method)
        if view is None:  # OPTIONS, or a method no class serves: 405 in the error shape
            return super().dispatch(request, *args, **kwargs)
        response = view(request, *args, **kwargs)
        if response.has_header("Allow"):  # the URL allows what all its classes serve, not one class
            response["Allow"] = ", ".join(self.allowed_methods)
        return response


def method_routes(**apis: type[APIView]) -> Callable[..., HttpResponseBase]:
    """Serve one URL with one API class per operation, e.g. ``method_routes(get=A, post=B)``.

    The handlers are copied onto the router class only so the schema generator reads each
    operation's ``extend_schema``; requests never run them there, they go to the class itself.
    """
    attrs: dict[str, Any] = {name: getattr(api, name) for name, api in apis.items()}
    attrs["routes"] = {name: api.as_view() for name, api in apis.items()}
    router = cast(type[_MethodRoutes], type("".join(api.__name__ for api in apis.values()), (_MethodRoutes,), attrs))
    return router.as_view()


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
        responses={200: OutputSerializer(many=True), **error_responses(401)},
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
