"""The weekly_report capability end to end: quick button, free text, polish under number fidelity, audit."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from agent.models import Alert, Run
from tests.helpers import NOW, LLMStub, Seeded, clock_at, events, post_request, route_json, trace_of

pytestmark = pytest.mark.django_db
STAGES = ["report_collect", "report_project", "report_verify", "report_template", "report_polish"]


def _page(project_id: int | None) -> dict[str, Any]:
    if project_id is None:
        return {"page": "home", "origin": "workbench"}
    return {"page": "project_detail", "origin": "quick_button", "routeParams": {"projectId": project_id},
            "selectedEntity": {"type": "project", "id": project_id}}


def _audit_passes(run_id: str) -> None:
    call_command("audit_run", run_id)  # raises CommandError when a point fails


def test_the_quick_button_reports_last_full_week_with_every_stage_on_the_trace(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(seeded.website.pk), action="weekly_report")

    assert run["status"] == "done", run
    report = run["data"]["report"]
    assert report["week"] == "2026-W48"
    assert report["counts"] == {"completed": 2, "created": 1, "reopened": 1, "slipped": 1, "overdue": 3,
                                "in_progress": 1, "blocked": 1, "deleted": 1, "open": 4}
    assert report["previous"]["counts"]["completed"] == 2
    assert report["url"] == f"/projects/{seeded.website.pk}/reports/weekly/?week=2026-W48"
    assert run["reply"].startswith(
        "Last week, 2026-W48 (2026-11-23 to 2026-11-29), Website Redesign: 2 tasks completed")
    assert run["usage"]["llm_calls"] == 0
    nodes = [n["name"] for n in trace_of(alice, run["run_id"])["nodes"]]
    assert [n for n in nodes if n.startswith("report_")] == STAGES
    _audit_passes(run["run_id"])


def test_a_polish_that_keeps_every_number_is_used(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch, openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("weekly_report", week="2026-W48"))
    polished = ("In week 2026-W48 the team finished 2 tasks and started 1 new one; 1 was reopened. "
                "By Sunday 2026-11-29, 4 tasks were still open and 3 of them overdue.")
    openai_settings.push_text(polished)
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(seeded.website.pk), message="weekly report for 2026-W48 please")

    assert run["status"] == "done", run
    assert run["reply"] == polished
    assert run["data"]["polished"] is True
    assert not Alert.objects.filter(run_id=run["run_id"]).exists()
    polish_call = events(run["run_id"], "llm_call", "polish_weekly_report")[0]
    sent = "\n".join(m["content"] for m in polish_call.payload["messages"])
    assert "completed: 2" in sent and "Website Redesign" in sent
    # Figures as words only: no task of the week reaches the model by title.
    assert "boundary" not in sent and "due_sunday" not in sent
    _audit_passes(run["run_id"])


def test_a_polish_that_changes_one_number_falls_back_to_the_template_with_an_alert(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch, openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("weekly_report"))
    openai_settings.push_text("The team finished 2 tasks this week and 7 are overdue.")
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(seeded.website.pk), message="weekly report")

    assert run["status"] == "done"
    assert run["reply"].startswith("Last week, 2026-W48")
    assert run["data"]["polished"] is False
    alert = Alert.objects.get(run_id=run["run_id"])
    assert alert.kind == "number_mismatch" and "7" in alert.message
    assert alert.details["numbers"] == ["7"]


def test_a_polish_that_changes_a_date_falls_back_too(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch, openai_settings: LLMStub) -> None:
    openai_settings.push_json(route_json("weekly_report"))
    openai_settings.push_text("Up to 2026-11-30 the team finished 2 tasks.")
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(seeded.website.pk), message="weekly report")

    assert run["data"]["polished"] is False
    assert Alert.objects.get(run_id=run["run_id"]).details["numbers"] == ["2026-11-30"]


def test_home_reports_all_my_projects_and_a_typed_week(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(None), message="weekly report for 2026-W47")

    assert run["status"] == "done", run
    assert run["data"]["report"]["week"] == "2026-W47"
    assert run["data"]["report"]["scope"] == "All my projects"
    assert run["data"]["report"]["url"] == "/reports/weekly/?week=2026-W47"
    _audit_passes(run["run_id"])


def test_large_collections_are_stored_as_artifacts_and_bound_back(
        seeded: Seeded, alice: User, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.ARTIFACT_INLINE_MAX_ITEMS = 2
    with clock_at(monkeypatch, NOW):
        run = post_request(alice, _page(seeded.website.pk), action="weekly_report")

    assert run["status"] == "done"
    assert run["data"]["report"]["counts"]["completed"] == 2
    # The grouped counts of the tasks without history are one row per assignee and status: inline here.
    assert Run.objects.get(pk=run["run_id"]).artifacts.count() == 2
    bound = events(run["run_id"], "binding")
    assert {e.name for e in bound} == {"tasks", "events", "counted"}
    assert {e.name for e in bound if e.payload["artifact"]} == {"tasks", "events"}
    _audit_passes(run["run_id"])
