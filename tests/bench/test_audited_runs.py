"""CI's audit of the runs the app makes (bench/audited_runs.py): a scenario's runs outlive its rollback unchanged."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from agent.models import Alert, Artifact, Run, TraceEvent
from agent.run.audit import run_audit
from bench.audited_runs import runs_copy, runs_kept, runs_restore
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.helpers import LLMStub, post_request, route_json

pytestmark = pytest.mark.django_db


def _rows(run_id: str) -> dict[str, Any]:
    run = Run.objects.get(pk=run_id)
    return {"run": (run.status, run.capability, run.audit, run.message),
            "events": list(TraceEvent.objects.filter(run=run).order_by("seq").values_list("seq", "kind", "name",
                                                                                          "payload")),
            "alerts": list(Alert.objects.filter(run=run).values_list("kind", "message")),
            "artifacts": list(Artifact.objects.filter(run=run).values_list("ref", "sha256", "content_path"))}


def test_the_runs_a_rolled_back_scenario_stored_are_written_back_unchanged(
        openai_settings: LLMStub, alice: User, website: Project) -> None:
    earlier = post_request(alice, {"page": "home", "origin": "quick_button"}, action="my_overdue")["run_id"]
    for n in range(15):
        task_create(actor=alice, project=website, title=f"Row {n}", assignee=alice)
    openai_settings.push_json(route_json("query"))
    openai_settings.push_text("Fifteen rows.")
    copied: list[str] = []
    with transaction.atomic():
        before = runs_kept()
        run_id = post_request(alice, {"page": "home", "origin": "sidebar"}, message="show all my tasks")["run_id"]
        Task.objects.filter(title="Row 0").delete()  # a scenario's write, rolled back below
        stored = _rows(run_id)
        assert stored["artifacts"] and stored["events"]
        copied.append(runs_copy(before))
        transaction.set_rollback(True)
    assert not Run.objects.filter(pk=run_id).exists() and Task.objects.filter(title="Row 0").exists()

    assert runs_restore(copied[0]) == 1  # the earlier run was kept already: not copied twice
    assert _rows(run_id) == stored and Run.objects.filter(pk=earlier).exists()
    assert run_audit(Run.objects.get(pk=run_id)).passed
