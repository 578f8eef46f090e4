"""Free text through the real openai SDK against the scripted server: routes, request shape and faults."""
from __future__ import annotations

import json
import time
from datetime import date
from typing import Any

import pytest

from agent.context.tokens import token_count
from agent.models import Confirmation, Run
from agent.routing.decision import ROUTE_SCHEMA
from agent.routing.fast_path import ACTIONS
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.clients import api_client
from tests.llm_stub import Completion, LLMStub

URL = "/api/assistant/requests/"
_SLOTS: dict[str, Any] = ROUTE_SCHEMA["properties"]["slots"]  # type: ignore[index]


def _empty(schema: dict[str, Any]) -> Any:
    return {"array": [], "boolean": False}.get(schema["type"]) if isinstance(schema["type"], str) else None


EMPTY_SLOTS = {name: _empty(schema) for name, schema in _SLOTS["properties"].items()}


def route_json(capability: str, confidence: float = 0.9, **slots: Any) -> dict[str, Any]:
    """The router's answer as strict structured output gives it: every slot key present."""
    unknown = set(slots) - set(EMPTY_SLOTS)
    assert not unknown, f"not slots of ROUTE_SCHEMA: {unknown}"
    assert set(EMPTY_SLOTS) == set(_SLOTS["required"])
    return {"capability": capability, "confidence": confidence, "slots": {**EMPTY_SLOTS, **slots}}



def ask(user: Any, message: str, page: dict[str, Any]) -> dict[str, Any]:
    response = api_client(user).post(URL, {"message": message, "page_context": page}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def trace(user: Any, run_id: str) -> dict[str, Any]:
    return api_client(user).get(f"/api/assistant/runs/{run_id}/trace/").json()


def writes() -> tuple[int, ...]:
    return (Task.objects.count(), TaskActivity.objects.count(), Confirmation.objects.count())


@pytest.fixture
def task(alice: Any, website: Any) -> Task:
    return task_create(actor=alice, project=website, title="Fix login page", assignee=alice, status="in_progress")


@pytest.fixture
def hidden(bob: Any, platform: Any) -> Task:
    """A Data Platform task: alice cannot see it."""
    return task_create(actor=bob, project=platform, title="Rotate warehouse keys")


def selected_page(task: Task) -> dict[str, Any]:
    return {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk}}


def test_router_request_is_structured_output_on_the_router_model(
        openai_settings: LLMStub, settings: Any, alice: Any, website: Any) -> None:
    task = Task.objects.create(id=100_777, project=website, title="Fix login page", assignee=alice,
                               status="in_progress")
    openai_settings.push_json(route_json("crud", operation="update", status="done", scope="selected"))
    page = {**selected_page(task), "activeTab": "in_progress", "viewMode": "board",
            "filters": {"status": ["blocked"], "priority": ["P0"], "assignee": "me", "dueBefore": "2031-05-17",
                        "labels": ["frontend"]}, "searchKeyword": "zebrafish"}
    body = ask(alice, "mark it done", page)
    assert body["status"] == "done", body
    assert body["route"] == {"capability": "crud", "via": "llm_router"}
    assert Task.objects.get(pk=task.pk).status == "done"

    request = openai_settings.requests[0].body
    assert request["model"] == settings.LLM_ROUTER_MODEL
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["strict"] is True
    assert request["response_format"]["json_schema"]["schema"] == json.loads(json.dumps(ROUTE_SCHEMA))
    system = " ".join(m["content"] for m in request["messages"] if m["role"] == "system")
    user = [m["content"] for m in request["messages"] if m["role"] == "user"]
    assert user == ["mark it done"]
    for words in ("task list", "task is selected", "in progress", "blocked", "P0", "assigned to the user"):
        assert words in system, f"{words!r} missing from the router prompt: {system}"
    # The router sees key filters only, and nothing of the exec-only or summary-only fields.
    for absent in ("2031", "May 17", "frontend", "zebrafish", "board", "sidebar", str(task.pk)):
        assert absent not in system, f"{absent!r} in the router prompt: {system}"
    assert openai_settings.calls == 1


ROUTES: list[tuple[str, dict[str, Any]]] = [
    ("decompose", {"scope": "selected"}),
    ("weekly_report", {}),
    ("risk", {"preset": "at_risk_this_week"}),
]


def test_route_create(openai_settings: LLMStub, alice: Any, website: Any) -> None:
    openai_settings.push_json(route_json("crud", operation="create", title="Write release notes", priority="P1",
                                         due_date="2031-03-04"))
    page = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}
    body = ask(alice, "add a task to write release notes, P1, due 2031-03-04", page)
    assert body["status"] == "done", body
    created = Task.objects.get(title="Write release notes")
    assert (created.project, created.priority, created.due_date, created.created_by) == \
        (website, "P1", date(2031, 3, 4), alice)


def test_a_create_with_a_date_in_words_runs_when_the_reader_reads_the_same(openai_settings: LLMStub, alice: Any,
                                                                           website: Any) -> None:
    # The reader reads "March 4 2031" too (dateparser): the same create, so it runs at once.
    openai_settings.push_json(route_json("crud", operation="create", title="Write release notes", priority="P1",
                                         due_date="2031-03-04"))
    page = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}
    body = ask(alice, "add a task to write release notes, P1, due March 4 2031", page)
    assert body["status"] == "done", body
    assert Task.objects.get(title="Write release notes").due_date.isoformat() == "2031-03-04"


def test_a_create_whose_date_the_reader_reads_otherwise_asks_first(openai_settings: LLMStub, alice: Any,
                                                                   website: Any) -> None:
    # The model's date is not the one the words name: the model's reading is shown on a card first.
    openai_settings.push_json(route_json("crud", operation="create", title="Write release notes", priority="P1",
                                         due_date="2031-03-05"))
    page = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}
    body = ask(alice, "add a task to write release notes, P1, due March 4 2031", page)
    assert body["status"] == "needs_confirmation", body
    assert "(priority P1, due date 2031-03-05)" in body["confirmation"]["facts"]["change"]
    assert not Task.objects.filter(title="Write release notes").exists()


def test_route_update_by_typed_number(openai_settings: LLMStub, alice: Any, task: Task) -> None:
    openai_settings.push_json(route_json("crud", operation="update", task_id=task.pk, priority="P0"))
    body = ask(alice, f"make #{task.pk} a P0", {"page": "home", "origin": "sidebar"})
    assert body["status"] == "done", body
    assert Task.objects.get(pk=task.pk).priority == "P0"


def test_route_delete_waits_for_confirmation(openai_settings: LLMStub, alice: Any, task: Task) -> None:
    openai_settings.push_json(route_json("crud", operation="delete", scope="selected"))
    body = ask(alice, "delete this", selected_page(task))
    assert body["status"] == "needs_confirmation", body
    assert body["confirmation"]["facts"]["title"] == "Fix login page"
    assert Task.objects.filter(pk=task.pk).exists()


def test_route_query_then_explain_with_the_generation_model(
        openai_settings: LLMStub, settings: Any, alice: Any, website: Any, task: Task) -> None:
    task_create(actor=alice, project=website, title="Plan sprint", assignee=alice, status="todo")
    openai_settings.push_json(route_json("query", status_filter=["in_progress"], assignee_me=True))
    openai_settings.push_text("One task of yours is in progress.")
    body = ask(alice, "what am I working on?", {"page": "home", "origin": "sidebar"})
    assert body["status"] == "done", body
    assert body["route"] == {"capability": "query", "via": "llm_router"}
    assert body["data"]["count"] == 1 and body["data"]["items"][0]["title"] == "Fix login page"
    assert body["usage"]["llm_calls"] == 2 and openai_settings.calls == 2
    calls = trace(alice, body["run_id"])["llm_calls"]
    stored = Run.objects.get(pk=body["run_id"])
    # The calls' usage reaches the run's counters with its outcome, as the trace recorded each call.
    assert {name: getattr(stored, name) for name in body["usage"]} == body["usage"] == {
        "llm_calls": len(calls), **{name: sum(c["usage"][name] for c in calls)
                                    for name in ("prompt_tokens", "completion_tokens")}}
    assert body["usage"]["prompt_tokens"] > 0
    explain = openai_settings.requests[1].body
    assert explain["model"] == settings.LLM_GENERATION_MODEL
    assert "response_format" not in explain
    assert "Fix login page" in " ".join(m["content"] for m in explain["messages"])


@pytest.mark.parametrize(("capability", "slots"), ROUTES, ids=[c for c, _ in ROUTES])
def test_route_to_other_capabilities(openai_settings: LLMStub, alice: Any, task: Task, capability: str,
                                     slots: dict[str, Any]) -> None:
    openai_settings.push_json(route_json(capability, **slots))
    body = ask(alice, "please help with this", selected_page(task))
    assert body["route"] == {"capability": capability, "via": "llm_router"}
    assert openai_settings.requests[0].body["response_format"]["type"] == "json_schema"


def test_route_to_clarify(openai_settings: LLMStub, alice: Any, task: Task) -> None:
    openai_settings.push_json(route_json("clarify", confidence=0.95))
    body = ask(alice, "hmm", selected_page(task))
    assert body["status"] == "needs_clarification"
    assert body["route"] == {"capability": "clarify", "via": "llm_router"}
    assert body["data"]["suggestions"]


def test_server_error_is_retried(openai_settings: LLMStub, alice: Any, task: Task) -> None:
    openai_settings.push_error(500).push_json(route_json("crud", operation="update", status="blocked",
                                                         scope="selected"))
    body = ask(alice, "set this to blocked", selected_page(task))
    assert body["status"] == "done", body
    assert openai_settings.calls == 2
    assert body["usage"]["llm_calls"] == 1
    assert Task.objects.get(pk=task.pk).status == "blocked"


def test_timeout_is_a_clear_error_and_changes_nothing(openai_settings: LLMStub, settings: Any, alice: Any,
                                                      task: Task) -> None:
    settings.LLM_TIMEOUT_SECONDS = 0.3
    settings.LLM_MAX_RETRIES = 0
    openai_settings.push_delay(3.0, Completion(json.dumps(route_json("crud", operation="delete",
                                                                     scope="selected"))))
    before = writes()
    started = time.monotonic()
    body = ask(alice, "delete this", selected_page(task))
    assert time.monotonic() - started < 2.5
    assert body["status"] == "error"
    failed = Run.objects.get(pk=body["run_id"])
    assert failed.error_code == "llm_unavailable"
    assert failed.llm_calls == body["usage"]["llm_calls"] == 1, "a call that failed is counted"
    assert body["reply"].strip() and body["confirmation"] is None
    assert openai_settings.calls == 1
    assert writes() == before


@pytest.mark.parametrize("answer", [
    "not json {",
    json.dumps(route_json("launch_rocket")),
    json.dumps(route_json("crud", operation="update", status="finished")),
    json.dumps({"capability": "crud"}),
    json.dumps([route_json("crud")]),
], ids=["malformed", "unknown-capability", "invalid-slot", "missing-slots", "not-an-object"])
def test_unreadable_router_answer_asks_for_clarification(openai_settings: LLMStub, alice: Any, task: Task,
                                                         answer: str) -> None:
    openai_settings.push_malformed(answer)
    before = writes()
    body = ask(alice, "do the thing", selected_page(task))
    assert body["status"] == "needs_clarification", body
    assert body["route"] == {"capability": "clarify", "via": "llm_router"}
    assert writes() == before


def test_low_confidence_asks_for_clarification_with_quick_actions(openai_settings: LLMStub, alice: Any,
                                                                  task: Task) -> None:
    openai_settings.push_json(route_json("crud", confidence=0.3, operation="delete", scope="selected"))
    before = writes()
    body = ask(alice, "maybe get rid of it?", selected_page(task))
    assert body["status"] == "needs_clarification"
    suggestions = body["data"]["suggestions"]
    assert suggestions and all(s["action"] in ACTIONS and s["label"].strip() for s in suggestions)
    assert writes() == before and Task.objects.filter(pk=task.pk).exists()


@pytest.mark.parametrize("slots", [{"operation": "delete"}, {"operation": "update", "status": "done"}],
                         ids=["delete", "update"])
def test_slots_naming_a_task_the_user_cannot_see(openai_settings: LLMStub, alice: Any, hidden: Task,
                                                 slots: dict[str, Any]) -> None:
    openai_settings.push_json(route_json("crud", task_id=hidden.pk, **slots))
    before = writes()
    body = ask(alice, f"{slots['operation']} task #{hidden.pk}", {"page": "home", "origin": "sidebar"})
    assert body["status"] == "error"
    assert Run.objects.get(pk=body["run_id"]).error_code == "not_found"
    assert body["reply"].strip() and body["confirmation"] is None
    assert writes() == before
    assert Task.objects.get(pk=hidden.pk).status == "todo"


def test_router_prompt_does_not_grow_with_visible_ids(openai_settings: LLMStub, alice: Any, website: Any) -> None:
    tasks = Task.objects.bulk_create(Task(project=website, title=f"Row {n}") for n in range(500))
    visible = [t.pk for t in tasks]
    prompts = []
    for ids in ([], visible):
        openai_settings.push_json(route_json("clarify", confidence=0.2))
        page = {"page": "task_list", "origin": "sidebar", "routeParams": {"projectId": website.pk},
                "filters": {"status": ["todo"]}, "visibleEntityIds": ids}
        run = ask(alice, "which of these matter most?", page)
        prompts.append(trace(alice, run["run_id"])["llm_calls"][0]["messages"])
    counts = [sum(token_count(m["content"]) for m in messages) for messages in prompts]
    print(f"\nrouter prompt tokens: {counts[0]} with 0 visible ids, {counts[1]} with 500 visible ids")
    assert prompts[0] == prompts[1]
    sent = [r.body["messages"] for r in openai_settings.requests]
    assert len(sent) == 2 and sent[0] == sent[1] == prompts[0]
