"""The router table through the LLM router: a scripted model answers each row with the route the table
expects, over HTTP through the real openai SDK, and the router must read back exactly that.

The offline rules are checked on the same table in test_router_table.py. Here the model's answer is
given, so what is pinned is the LLM router's side: the request it sends (the row's message verbatim,
the page as words, the strict route schema), and its parsing, validation, confidence floor and the
slots it hands on — capability, operation, task number, scope and project name alike.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from agent.context.three_views import RouterCtx
from agent.llm.client import LLMClient
from agent.llm.providers import llm_provider_from_settings
from agent.models import Run
from agent.routing.decision import ROUTE_SCHEMA
from agent.routing.llm_router import llm_route
from agent.run.trace import TraceRecorder
from tests.agent.test_router_table import TABLE
from tests.data_layer.helpers import route_json
from tests.llm_stub import LLMStub

pytestmark = pytest.mark.django_db
# An unclear request: the model is unsure, below ROUTER_MIN_CONFIDENCE, so the router asks back.
UNSURE = 0.3


@pytest.fixture
def client(openai_settings: LLMStub, alice: User) -> LLMClient:
    run = Run.objects.create(user=alice, page_context={"page": "home", "origin": "sidebar"})
    recorder = TraceRecorder(run)
    return LLMClient(provider=llm_provider_from_settings(), recorder=recorder)


def test_the_table_is_the_one_the_offline_rules_are_checked_on() -> None:
    assert sum(row["lang"] == "en" for row in TABLE) >= 80 and sum(row["lang"] == "zh" for row in TABLE) >= 40


@pytest.mark.parametrize("row", TABLE, ids=[f"{row['lang']}:{row['message']}" for row in TABLE])
def test_the_llm_router_reads_back_the_route_the_model_gave(row: dict[str, Any], client: LLMClient,
                                                            openai_settings: LLMStub) -> None:
    clear = row["capability"] != "clarify"
    openai_settings.push_json(route_json(row["capability"], 0.9 if clear else UNSURE, **row["slots"]))

    route = llm_route(ctx=RouterCtx(page="home", origin="sidebar"), message=row["message"], llm=client)

    openai_settings.assert_all_consumed()
    assert route.via == "llm_router" and route.capability == row["capability"]
    if clear:
        given = route.slots.model_dump(mode="json")
        assert {key: given[key] for key in row["slots"]} == row["slots"]
        assert route.confidence == 0.9
    else:
        assert route.confidence == 0.0 and route.reason
    # What went over the wire: the message verbatim as the user's turn, the page as words, the strict schema.
    body = openai_settings.last_body
    messages = body["messages"]
    assert messages[-1] == {"role": "user", "content": row["message"]}
    assert "Page: the home workbench." in " ".join(m["content"] for m in messages if m["role"] == "system")
    assert body["response_format"]["json_schema"]["schema"] == json.loads(json.dumps(ROUTE_SCHEMA))
    assert body["response_format"]["json_schema"]["strict"] is True
