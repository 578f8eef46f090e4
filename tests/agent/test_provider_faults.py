"""The provider-fault matrix: every way a model endpoint breaks, at every call site of a run.

Each fault ends the run with HTTP 200 and a clear status (an error, a clarification, or the
template answer), within the call's deadline plus a second, with nothing written. The deadlines
are settings, set short here: a hang costs a test one second, not the production ten (and a
healthy answer still has a second to come on a busy machine).
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

# Imported up front so the first case does not pay the SDK's import inside its timed request.
import agent.llm.openai_provider  # noqa: F401
from agent.models import Confirmation, Run, TraceEvent
from projects.models import Project
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.llm_stub import Completion, LLMStub

CALL_DEADLINE = 0.5
OUTPUT_LIMIT = 2000
SLOTS = {"operation": None, "task_id": None, "title": None, "status": None, "priority": None,
         "due_date": None, "scope": None, "expected_title": None, "expected_status": None,
         "status_filter": [], "priority_filter": [], "assignee_me": True, "preset": None}
QUERY = {"capability": "query", "confidence": 0.9, "slots": SLOTS}
# What a router would answer to write: if a broken answer were read anyway, the task would change.
UPDATE = {"capability": "crud", "confidence": 0.95,
          "slots": {**SLOTS, "assignee_me": False, "operation": "update", "status": "done", "scope": "selected"}}


def _completion(message: Any, **extra: Any) -> bytes:
    return json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                       "choices": [{"index": 0, "message": message, "finish_reason": "stop"}], **extra}).encode()


def _text(site: str) -> str:
    """A plausible answer for the site: the router's JSON, or a sentence."""
    return json.dumps(UPDATE) if site == "route" else "Here is what I found."


def _with_slot_or_text(site: str, bad: str) -> Completion:
    if site == "route":
        return Completion(json.dumps({**UPDATE, "slots": {**UPDATE["slots"], "expected_title": f"Fix{bad}login"}}))
    return Completion(f"Here is{bad} what I found.")


# fault name -> (scripted answer for the site, whether it is an outage of the endpoint)
Fault = Callable[[LLMStub, str], None]
FAULTS: dict[str, Fault] = {
    "truncated_json": lambda stub, site: stub.push_raw(200, Completion(_text(site)).render({}).body[:90]),
    "html_body": lambda stub, site: stub.push_raw(200, b"<html><body>Bad gateway</body></html>", "text/html"),
    "no_choices": lambda stub, site: stub.push_raw(200, json.dumps({"id": "x", "choices": []}).encode()),
    "null_message": lambda stub, site: stub.push_raw(200, _completion(None)),
    "null_function": lambda stub, site: stub.push_raw(200, _completion(
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": None}]})),
    "bad_arguments": lambda stub, site: stub.push_tool_call("head", '{"lines": [[[[' * 5000),
    "nul_in_text": lambda stub, site: stub.push(_with_slot_or_text(site, "\u0000")),
    "lone_surrogate": lambda stub, site: stub.push(_with_slot_or_text(site, "\ud800")),
    "over_output_limit": lambda stub, site: stub.push_text("x" * (OUTPUT_LIMIT + 1)),
    "hang": lambda stub, site: stub.push_delay(60, Completion(_text(site))),
    "trickle": lambda stub, site: stub.push_trickle(0.2, Completion(_text(site))),
    "stall_after_headers": lambda stub, site: stub.push_trickle(60, Completion(_text(site))),
}
OUTAGES = {"hang", "trickle", "stall_after_headers"}
SITES = ["route", "explain", "explain_after_inspection"]


@pytest.fixture
def faulty(openai_settings: LLMStub, settings: Any) -> LLMStub:
    settings.LLM_CALL_DEADLINE_SECONDS = CALL_DEADLINE
    settings.AGENT_RUN_DEADLINE_SECONDS = 3 * CALL_DEADLINE
    settings.LLM_OUTPUT_MAX_CHARS = OUTPUT_LIMIT
    return openai_settings


def _writes() -> tuple[Any, ...]:
    tasks = tuple(Task.objects.order_by("pk").values_list("pk", "status", "title", "updated_at"))
    return tasks, TaskActivity.objects.count(), Confirmation.objects.count()


def _ask(user: User, page: dict[str, Any]) -> tuple[dict[str, Any], float]:
    client = APIClient()
    client.force_authenticate(user)
    started = time.monotonic()
    response = client.post("/api/assistant/requests/", {"message": "show my tasks", "page_context": page},
                           format="json")
    elapsed = time.monotonic() - started
    assert response.status_code == 200, response.content[:500]
    return response.json(), elapsed


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize("fault", list(FAULTS))
def test_fault_at_call_site(faulty: LLMStub, alice: User, website: Project, fault: str, site: str) -> None:
    count = 12 if site == "explain_after_inspection" else 2  # over ten rows: the result becomes an artifact
    tasks = [task_create(actor=alice, project=website, title=f"Checklist item {n}", assignee=alice)
             for n in range(count)]
    page = {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": tasks[0].pk}}
    if site != "route":
        faulty.push_json(QUERY)
    if site == "explain_after_inspection":
        faulty.push_tool_call("head", {"lines": 3})
    FAULTS[fault](faulty, site)
    before = _writes()

    body, elapsed = _ask(alice, page)

    run = Run.objects.get(pk=body["run_id"])
    assert _writes() == before, "a broken model answer changed data"
    # Time to error: the failed call's own time; the request as a whole stays within the run's deadline.
    failed = TraceEvent.objects.filter(run_id=run.pk, kind="llm_call").order_by("seq").last()
    assert failed is not None and failed.name == site
    # Printed for the record (pytest -s): the figure the deadline bounds.
    print(f"\n{fault} at {site}: the call failed after {failed.payload['seconds']:.2f}s, "
          f"the request took {elapsed:.2f}s")
    assert failed.payload["seconds"] <= CALL_DEADLINE + 1, f"{fault} at {site}: {failed.payload['seconds']}s"
    assert elapsed <= 3 * CALL_DEADLINE + 1, f"{fault} at {site} took {elapsed:.1f}s"
    assert body["confirmation"] is None and body["reply"].strip()
    if site == "route":
        expected = ("error", "llm_unavailable") if fault in OUTAGES else ("needs_clarification", "")
        assert (body["status"], run.error_code) == expected, body
    else:
        # The explanation is optional: the template answer stands in for it.
        assert body["status"] == "done", body
        assert body["data"]["count"] == count
        assert body["reply"].startswith(f"{count} matching tasks"), body["reply"]
    assert failed.payload["error"] or site != "route" or fault not in OUTAGES


def test_a_run_stops_at_its_own_deadline(faulty: LLMStub, settings: Any, alice: User, website: Project) -> None:
    settings.LLM_CALL_DEADLINE_SECONDS = 2.0
    settings.AGENT_RUN_DEADLINE_SECONDS = 1.5
    task_create(actor=alice, project=website, title="Checklist item", assignee=alice)
    faulty.push_delay(1.0, Completion(json.dumps(QUERY)))  # the router is slow but answers
    faulty.push_trickle(0.2, Completion("A slow explanation."))  # the explanation gets only what is left
    body, elapsed = _ask(alice, {"page": "home", "origin": "sidebar"})
    assert body["status"] == "done" and body["reply"].startswith("1 matching task")
    assert elapsed <= 1.5 + 1, elapsed
    # Half a second at most was left of the run, not the call's two seconds.
    explain = TraceEvent.objects.get(run_id=body["run_id"], kind="llm_call", name="explain")
    assert explain.payload["seconds"] <= 1.0, explain.payload


def test_storable_trace_of_a_model_that_writes_nul_and_surrogates(faulty: LLMStub, alice: User,
                                                                   website: Project) -> None:
    task_create(actor=alice, project=website, title="Checklist item", assignee=alice)
    faulty.push_json(QUERY)
    faulty.push_text("bad \u0000 and \ud800 text")
    body, _ = _ask(alice, {"page": "home", "origin": "sidebar"})
    assert body["status"] == "done"
    explain = TraceEvent.objects.get(run_id=body["run_id"], kind="llm_call", name="explain")
    assert explain.payload["reply"] == "bad \ufffd and \ufffd text"
    assert "\u0000" not in body["reply"]


@pytest.mark.parametrize("body", [b'{"choices": [{"message": {"content": 7}}]}', b"[1, 2]", b"null"],
                         ids=["content-not-text", "a-list", "null"])
def test_other_shapes_are_refused_at_the_router(faulty: LLMStub, alice: User, website: Project, body: bytes) -> None:
    faulty.push_raw(200, body)
    answer, _ = _ask(alice, {"page": "home", "origin": "sidebar"})
    assert answer["status"] == "needs_clarification"

