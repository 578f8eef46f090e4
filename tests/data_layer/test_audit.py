"""The seed's four-point audit: clean runs pass every point; each planted violation fails exactly its point."""
from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from agent.artifacts.lifecycle import artifact_archive
from agent.artifacts.store import artifact_storage
from agent.models import Artifact, Run, TraceEvent
from agent.run.audit import run_audit
from agent.run.trace import TraceRecorder
from agent.tools.facts import fact, values_digest
from projects.models import Project
from tests.llm_stub import LLMStub

from .helpers import events, make_tasks, post_request, route_json, trace_of
from .scenarios import EXPECTED_STATUS

STRAY_ID = 987_654


def passed_points(run_id: str) -> list[bool]:
    return [point.passed for point in run_audit(Run.objects.get(pk=run_id)).points]


def findings(run_id: str, number: int) -> list[str]:
    return run_audit(Run.objects.get(pk=run_id)).points[number - 1].findings


def test_every_clean_run_passes_all_four_points(suite: dict[str, str]) -> None:
    assert set(suite) == set(EXPECTED_STATUS)
    for name, run_id in suite.items():
        run = Run.objects.get(pk=run_id)
        assert run.status == EXPECTED_STATUS[name], (name, run.reply)
        report = run_audit(run)
        assert [p.number for p in report.points] == [1, 2, 3, 4]
        assert report.passed, (name, report.as_dict())


def test_the_clean_suite_gives_every_point_something_to_check(suite: dict[str, str]) -> None:
    """The suite is not passing vacuously: bound ids, page and typed ids, previews, facts and prompts all occur."""
    all_events = TraceEvent.objects.filter(run_id__in=suite.values())
    tool_calls = all_events.filter(kind="tool_call")
    assert any(e.payload.get("bound") for e in tool_calls.filter(name="bulk_set_status"))
    assert tool_calls.filter(name="delete_task", run_id=suite["delete"]).exists()
    assert tool_calls.filter(name="update_task", run_id=suite["update"]).exists()
    assert tool_calls.filter(name="create_task", run_id=suite["create"]).exists()
    previews = [p for e in all_events.filter(kind="artifact") for p in e.payload["previews"]]
    assert {str(e.run_id) for e in all_events.filter(kind="artifact")} >= {suite["query_large"], suite["bulk_15"]}
    assert len(previews) >= 2
    for name in ("update", "delete", "bulk_6", "bulk_15"):
        writes = [e for e in tool_calls.filter(run_id=suite[name]) if e.name in ("update_task", "delete_task",
                                                                                 "bulk_set_status")]
        assert writes and all(e.payload["facts"] for e in writes), name
    explain = all_events.filter(kind="llm_call", name="explain")
    assert {str(e.run_id) for e in explain} == {suite["query_small"], suite["query_large"]}
    assert not all_events.filter(kind="llm_call", run_id=suite["my_overdue"]).exists()


def test_audit_run_all_passes_on_the_clean_suite(suite: dict[str, str]) -> None:
    out = StringIO()
    call_command("audit_run", "--all", stdout=out)
    text = out.getvalue()
    assert f"{len(suite)} runs audited: {len(suite)} passed, 0 failed" in text
    assert "FAIL" not in text
    out = StringIO()
    call_command("audit_run", "--json", *suite.values(), stdout=out)
    reports = json.loads(out.getvalue())
    assert {r["run_id"] for r in reports} == set(suite.values())
    assert all(r["passed"] and len(r["points"]) == 4 for r in reports)


def test_audit_run_names_an_unknown_run(db: Any) -> None:
    with pytest.raises(CommandError, match="was not found"):
        call_command("audit_run", "00000000-0000-0000-0000-000000000000", stdout=StringIO())
    with pytest.raises(CommandError, match="Name a run id"):
        call_command("audit_run", stdout=StringIO())


@pytest.fixture
def base(openai_settings: LLMStub, alice: User, mobile: Project) -> Run:
    """A clean run of an externalized query (15 rows) explained by the model."""
    make_tasks(alice, mobile, 15, prefix="Mobile")
    openai_settings.push_json(route_json("query"))
    openai_settings.push_text("Fifteen tasks, all still to do.")
    page = {"page": "task_list", "origin": "sidebar", "routeParams": {"projectId": mobile.pk}}
    run_id = post_request(alice, page, message="what is in this project?")["run_id"]
    assert passed_points(run_id) == [True, True, True, True]
    return Run.objects.get(pk=run_id)


def _llm_call(recorder: TraceRecorder, *, reply: str = "", parts: list[dict[str, str]] | None = None) -> None:
    recorder.event(TraceEvent.Kind.LLM_CALL, "explain", provider="openai", role="generation", model="stub",
                   messages=[], parts=parts or [{"ref": "prompt:explain", "form": "instruction", "role": "system"}],
                   reply=reply, error="", usage={"prompt_tokens": 1, "completion_tokens": 1})


def _stored_previews(run: Run) -> tuple[str, list[dict[str, Any]]]:
    (artifact_event,) = events(str(run.pk), "artifact")
    previews = artifact_event.payload["previews"]
    assert previews
    return artifact_event.payload["artifact"]["ref"], previews


def plant_copied_id(run: Run) -> None:
    recorder = TraceRecorder(run)
    _llm_call(recorder, reply=f"You probably mean task {STRAY_ID}.")
    recorder.tool_call("update_task", arguments={"task_id": STRAY_ID, "status": "done"}, result={},
                       facts={"status": fact("todo", "database")})


def plant_copied_array(run: Run) -> None:
    recorder = TraceRecorder(run)
    _llm_call(recorder, reply=f"Update {STRAY_ID} and {STRAY_ID + 1}.")
    recorder.tool_call("bulk_set_status", arguments={"task_ids": [STRAY_ID, STRAY_ID + 1], "status": "done"},
                       result={}, facts={"count": fact(2, "database")})


def plant_unresolved_binding(run: Run) -> None:
    """A tool call that claims a binding no binding event ever resolved (say, one a model wrote itself)."""
    TraceRecorder(run).tool_call("update_task", arguments={"task_id": STRAY_ID, "status": "done"}, result={},
                                 facts={"status": fact("todo", "database")},
                                 bound={"task_id": {"binding": "step s9 at $.id", "sha256": values_digest(STRAY_ID)}})


def plant_two_forms(run: Run) -> None:
    ref, _ = _stored_previews(run)
    _llm_call(TraceRecorder(run), parts=[{"ref": ref, "form": "summary", "role": "user"},
                                         {"ref": ref, "form": "preview", "role": "user"}])


def _rewritten(change: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[Run], None]:
    def plant(run: Run) -> None:
        ref, previews = _stored_previews(run)
        TraceRecorder(run).event(TraceEvent.Kind.ARTIFACT, "query_tasks", step="s1",
                                 artifact={"ref": ref}, previews=[change(previews[0]), *previews[1:]])
    return plant


def plant_model_fact(run: Run) -> None:
    task_id = run.data["items"][0]["id"]  # bound to the query's result, so point 1 has nothing to say
    recorder = TraceRecorder(run)
    recorder.event(TraceEvent.Kind.BINDING, "task_id", step="delete", binding="step s1 at $.items[0].id",
                   artifact=None, count=1, sha256=values_digest(task_id))
    recorder.tool_call("delete_task", arguments={"task_id": task_id}, result={},
                                 facts={"status": {"value": "todo", "source": "model"},
                                        "title": fact("Mobile 00", "database")},
                                 bound={"task_id": {"binding": "step s1 at $.items[0].id",
                                                    "sha256": values_digest(task_id)}})


PLANTED = [
    pytest.param(plant_copied_id, 1, ["update_task(task_id)", str(STRAY_ID), "copied from model output"],
                 id="1-id-copied-from-a-reply"),
    pytest.param(plant_copied_array, 1, ["bulk_set_status(task_ids)", "copied from model output"],
                 id="1-array-copied-from-a-reply"),
    pytest.param(plant_unresolved_binding, 1, ["update_task(task_id)", "no earlier binding event resolved"],
                 id="1-binding-never-resolved"),
    pytest.param(plant_two_forms, 2, ["appears as summary, preview"], id="2-one-ref-two-forms"),
    pytest.param(_rewritten(lambda p: {**p, "text": p["text"].upper()}), 3, ["differs from the source text"],
                 id="3-preview-case-changed"),
    pytest.param(_rewritten(lambda p: {**p, "text": p["text"][:-1] + "…"}), 3, ["differs from the source text"],
                 id="3-preview-shortened-with-ellipsis"),
    pytest.param(_rewritten(lambda p: {**p, "start": p["start"] + 1, "end": p["end"] + 1}), 3,
                 ["differs from the source text"], id="3-preview-offsets-shifted"),
    pytest.param(plant_model_fact, 4, ["delete_task", "fact 'status' came from model"], id="4-fact-from-the-model"),
]


@pytest.mark.parametrize(("plant", "point", "words"), PLANTED)
def test_a_planted_violation_fails_exactly_its_point(base: Run, plant: Callable[[Run], None], point: int,
                                                     words: list[str]) -> None:
    plant(base)
    run_id = str(base.pk)
    assert passed_points(run_id) == [n != point for n in (1, 2, 3, 4)]
    (finding,) = findings(run_id, point)
    for word in words:
        assert word in finding
    out = StringIO()
    with pytest.raises(CommandError, match="audit failed"):
        call_command("audit_run", run_id, stdout=out)
    assert f"Run {run_id}: FAIL" in out.getvalue() and finding in out.getvalue()


def test_an_exact_copy_of_a_stored_preview_passes(base: Run) -> None:
    _rewritten(lambda p: p)(base)
    assert passed_points(str(base.pk)) == [True, True, True, True]


def test_an_id_the_user_typed_is_not_a_violation(openai_settings: LLMStub, alice: User, website: Project) -> None:
    (task,) = make_tasks(alice, website, 1, status="in_progress")
    openai_settings.push_json(route_json("crud", operation="update", task_id=task.pk, status="done"))
    run_id = post_request(alice, {"page": "home", "origin": "sidebar"}, message=f"close #{task.pk} please")["run_id"]
    assert passed_points(run_id) == [True, True, True, True]
    # The same id, unbound and absent from page and message, but echoed by the model: caught.
    run = Run.objects.get(pk=run_id)
    run.message = "close it please"
    run.save(update_fields=["message"])
    _llm_call(TraceRecorder(run), reply=f"Closing #{task.pk}.")
    assert passed_points(run_id) == [False, True, True, True]
    assert "copied from model output" in findings(run_id, 1)[0]


def test_a_key_the_user_typed_names_its_task_id(openai_settings: LLMStub, alice: User, website: Project) -> None:
    (task,) = make_tasks(alice, website, 1, status="in_progress")
    openai_settings.push_json(route_json("crud", operation="update", task_id=task.pk, status="done"))
    run_id = post_request(alice, {"page": "home", "origin": "sidebar"}, message=f"close {task.key} please")["run_id"]
    assert passed_points(run_id) == [True, True, True, True]
    assert Run.objects.get(pk=run_id).audit["passed"]
    run = Run.objects.get(pk=run_id)
    run.message = f"close {task.key}0 please"  # another task's key: its number is not this id
    run.save(update_fields=["message"])
    _llm_call(TraceRecorder(run), reply=f"Closing {task.key}.")
    assert passed_points(run_id)[0] is False


def test_the_trace_api_reports_the_audit(base: Run, alice: User) -> None:
    trace = trace_of(alice, str(base.pk))
    assert trace["audit"] == run_audit(base).as_dict()
    assert trace["audit"]["passed"] is True
    plant_model_fact(base)
    audit = trace_of(alice, str(base.pk))["audit"]
    assert audit["passed"] is False
    assert [p["passed"] for p in audit["points"]] == [True, True, True, False]


def test_the_run_admin_shows_the_failed_point(base: Run, client: Client, admin_user: User) -> None:
    plant_model_fact(base)
    client.force_login(admin_user)
    response = client.get(f"/admin/agent/run/{base.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<strong>4. FAIL</strong>" in html and "<strong>1. pass</strong>" in html
    assert "fact &#x27;status&#x27; came from model" in html


def test_a_project_id_on_the_page_does_not_vouch_for_a_task_id(base: Run) -> None:
    """Ids are checked by kind: the page's projectId is no source for a task_id of the same number."""
    project_id = base.page_context["routeParams"]["projectId"]
    recorder = TraceRecorder(base)
    _llm_call(recorder, reply=f"Delete task {project_id}.")
    recorder.tool_call("delete_task", arguments={"task_id": project_id}, result={},
                       facts={"title": fact("x", "database")})
    assert passed_points(str(base.pk)) == [False, True, True, True]
    assert any("delete_task(task_id)" in f for f in findings(str(base.pk), 1))


def test_a_preview_whose_content_was_lost_is_a_finding_not_a_crash(base: Run, alice: User) -> None:
    ref, previews = _stored_previews(base)
    artifact = Artifact.objects.get(ref=ref)
    artifact_storage().delete(artifact.content_path)
    artifact_archive(artifact=artifact)  # the content is gone, so the archive records no path
    assert Artifact.objects.get(pk=artifact.pk).content_path == ""

    audit = trace_of(alice, str(base.pk))["audit"]
    assert [p["passed"] for p in audit["points"]] == [True, True, False, True]
    assert len(audit["points"][2]["findings"]) == len(previews)
    assert all("could not be checked" in f for f in audit["points"][2]["findings"])


def test_audit_run_all_with_failures_prints_only_the_failing_runs_and_exits_non_zero(
        base: Run, alice: User, website: Project) -> None:
    clean = post_request(alice, {"page": "home", "origin": "quick_button"}, action="my_overdue")["run_id"]
    plant_model_fact(base)
    out = StringIO()
    with pytest.raises(CommandError, match="audit failed"):
        call_command("audit_run", "--all", "--failures", stdout=out)
    text = out.getvalue()
    assert f"Run {base.pk}: FAIL" in text and "fact 'status' came from model" in text
    # The module's other runs may be there too (its suite, planted ones): only failing runs are printed.
    printed = [line for line in text.splitlines() if line.startswith("Run ")]
    assert f"Run {clean}" not in text and printed and all(line.endswith(": FAIL") for line in printed)
    assert f"{Run.objects.count()} runs audited:" in text
