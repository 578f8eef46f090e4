"""The HTTP API against its own live schema: schemathesis generates requests from /api/schema/.

The schema is read from the running app (the WSGI handler, signed in with a DRF token, with the
schema behind login as in production); every operation then gets generated requests, valid
ones and ones that break the schema, sent through the same WSGI app with the token. No answer
may be a 5xx, every status must be one the schema lists for the operation, and the total is at
least MIN_REQUESTS. Hypothesis is derandomized, so a failure
reproduces, and nothing is shrunk or timed: each request counts once.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode

from tasks.services import task_create
from tests.hypothesis_profiles import examples

MIN_REQUESTS = examples(1000)
# Per operation and generation mode: 13 operations × 2 modes × 45, less the modes that have no case.
EXAMPLES = examples(45)


@pytest.fixture
def token_headers(alice: Any, website: Any, settings: Any) -> dict[str, str]:
    """Alice's token, a project and a task of hers, and the hosts and schema login of production."""
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    settings.API_SCHEMA_REQUIRES_LOGIN = True
    task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    return {"Authorization": f"Token {Token.objects.create(user=alice).key}"}


@pytest.fixture
def wsgi_app() -> Iterator[Any]:
    """The app as a server runs it, keeping the test's database connection (as Django's test client does)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


def test_no_generated_request_gets_a_server_error(token_headers: dict[str, str], wsgi_app: Any) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app, headers=token_headers)
    sent: Counter[str] = Counter()
    errors: list[str] = []
    unbreakable: list[str] = []
    undocumented: set[str] = set()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 13, [op.label for op in operations]
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
            @given(case=operation.as_strategy(generation_mode=mode))
            def send(case: Any) -> None:
                response = case.call(headers=token_headers)
                sent[f"{case.operation.label} {response.status_code}"] += 1
                documented = case.operation.definition.raw.get("responses", {})
                if str(response.status_code) not in documented and "default" not in documented:
                    undocumented.add(f"{case.operation.label} {response.status_code}")
                if response.status_code >= 500:
                    errors.append(f"{response.status_code} {case.as_curl_command(headers=token_headers)}")

            try:
                send()
            except Unsatisfiable:
                # An operation without parameters or body has no request that breaks its schema.
                assert mode == GenerationMode.NEGATIVE, operation.label
                unbreakable.append(operation.label)
    total = sum(sent.values())
    print(f"schemathesis: {total} requests over {len(operations)} operations, {len(errors)} server errors "
          f"(no negative case for: {', '.join(unbreakable) or 'none'})")
    print("\n".join(f"  {label}: {count}" for label, count in sorted(sent.items())))
    assert total >= MIN_REQUESTS, sent
    assert not errors, "\n".join(errors[:20])
    # Every status the API answered is one its schema lists for that operation.
    assert not undocumented, sorted(undocumented)
    # The token signed every request in: a generated request is refused for what it says, never for who sent it.
    assert not [label for label in sent if label.endswith(" 401")], sent


@pytest.mark.parametrize("path", ["/api/assistant/conversations/", "/api/projects/", "/api/tasks/"])
def test_an_unknown_format_on_a_list_is_a_documented_404(token_headers: dict[str, str], client: Any,
                                                         path: str) -> None:
    # DRF reads ?format= as the renderer asked for; one it has none for is not found, as the schema says.
    response = client.get(f"{path}?format=zzz", HTTP_AUTHORIZATION=token_headers["Authorization"])
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    schema = client.get("/api/schema/?format=json", HTTP_AUTHORIZATION=token_headers["Authorization"]).json()
    assert "404" in schema["paths"][path]["get"]["responses"]
