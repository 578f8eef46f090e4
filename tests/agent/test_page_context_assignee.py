"""filters.assignee names a user: only someone who shares a project with the user may be named."""
from __future__ import annotations

import re
from typing import Any

import pytest

from agent.models import Alert, Confirmation, Run, TraceEvent
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.agent.test_llm_router import route_json
from tests.clients import api_client
from tests.llm_stub import LLMStub

URL = "/api/assistant/requests/"
FIELD = "page_context.filters.assignee"



def _written() -> tuple[int, ...]:
    return (Run.objects.count(), Confirmation.objects.count(), TraceEvent.objects.count(), Alert.objects.count(),
            Task.objects.count(), TaskActivity.objects.count())


def _page(assignee: int) -> dict[str, Any]:
    return {"page": "task_list", "origin": "sidebar", "filters": {"assignee": assignee}}


@pytest.mark.parametrize("who", ["stranger", "missing"])
def test_assignee_who_shares_no_project_is_a_400_naming_the_field(
        openai_settings: LLMStub, alice: Any, bob: Any, website: Any, mobile: Any, platform: Any, who: str) -> None:
    """bob only owns Data Platform, which alice cannot see: his id (or no one's) is refused."""
    task_create(actor=bob, project=platform, title="Rotate warehouse keys", assignee=bob)
    assignee = bob.pk if who == "stranger" else 987_654
    before = _written()
    response = api_client(alice).post(URL, {"message": "what is on this list?", "page_context": _page(assignee)},
                                   format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert FIELD in error["fields"] and error["message"].startswith(f"{FIELD}: ")
    assert "bob" not in response.content.decode()
    assert _written() == before
    assert openai_settings.calls == 0


def test_teammate_assignee_is_named_in_the_model_summary(
        openai_settings: LLMStub, alice: Any, carol: Any, bob: Any, website: Any, platform: Any) -> None:
    """carol shares Website Redesign with alice, so her name (quoted) describes the filter."""
    task_create(actor=alice, project=website, title="Write pricing copy", assignee=carol)
    openai_settings.push_json(route_json("query", assignee_me=False)).push_text("Carol has one task.")
    response = api_client(alice).post(URL, {"message": "what is on this list?", "page_context": _page(carol.pk)},
                                   format="json")
    assert response.status_code == 200, response.content
    explain = openai_settings.requests[1].body["messages"]
    system = " ".join(m["content"] for m in explain if m["role"] == "system")
    assert re.search(r"assigned to “carol”", system), system
