"""What every API class shares: session or token auth with a 401 for anonymous callers, the acting
user, and one URL served by one API class per HTTP method."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, cast

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView


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
