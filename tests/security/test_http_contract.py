"""The API's HTTP promises, for every route under /api/ the URL resolver knows (new routes included).

- an anonymous caller gets 401 with ``WWW-Authenticate: Token`` from every one, the schema and its
  docs included when they require login (the production default);
- a path parameter of the wrong type (``/api/tasks/abc/``) is the JSON 404, never an HTML page;
- production mode puts the schema behind login by default.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.clients import api_client
from tests.test_settings import load_settings, production_env

# A sample value per path converter, and one of the wrong type.
_SAMPLE = {"int": "1", "uuid": "00000000-0000-0000-0000-000000000000", "str": "x", "slug": "x", "path": "x"}
_WRONG = {"int": "abc", "uuid": "not-a-uuid"}
_PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route


API_ROUTES = sorted(route for route in _routes(get_resolver().url_patterns) if route.startswith("api/"))


def _path(route: str, values: dict[str, str]) -> str:
    return "/" + _PARAM.sub(lambda m: values.get(m.group("converter") or "str", "x"), route)


def test_the_routes_are_found() -> None:
    """The sweep below covers the assistant's, the tasks' and the schema's routes, not a few by hand."""
    for route in ("api/schema/", "api/tasks/<int:task_id>/", "api/assistant/runs/<uuid:run_id>/confirm/",
                  "api/assistant/conversations/"):
        assert route in API_ROUTES, API_ROUTES


@pytest.mark.parametrize("route", API_ROUTES)
@pytest.mark.parametrize("method", ["get", "post", "patch", "delete"])
def test_anonymous_callers_get_401_everywhere(route: str, method: str, settings: Any, db: Any) -> None:
    settings.API_SCHEMA_REQUIRES_LOGIN = True
    response = getattr(api_client(None), method)(_path(route, _SAMPLE), {}, format="json")
    assert response.status_code == 401, (route, method, response.status_code, response.content[:200])
    assert response["WWW-Authenticate"] == "Token"
    if response["Content-Type"].startswith("application/json"):
        assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("route", [r for r in API_ROUTES if any(f"<{c}:" in r for c in _WRONG)])
def test_a_path_parameter_of_the_wrong_type_is_the_json_404(route: str, alice: Any) -> None:
    response = api_client(alice).get(_path(route, {**_SAMPLE, **_WRONG}))
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"error": {"code": "not_found", "message": "Not found.", "fields": {}}}


def test_production_puts_the_schema_behind_login(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(monkeypatch, **production_env())["API_SCHEMA_REQUIRES_LOGIN"] is True
    assert load_settings(monkeypatch)["API_SCHEMA_REQUIRES_LOGIN"] is False
    assert load_settings(monkeypatch, **production_env(), API_SCHEMA_REQUIRES_LOGIN="0")[
        "API_SCHEMA_REQUIRES_LOGIN"] is False
