"""The admin shows runs with their trace and alerts, confirmations, alerts by kind, and artifacts."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agent.models import Alert, Artifact, Confirmation, Run, TraceEvent
from projects.models import Project
from tests.agent.artifacts.conftest import classify_rows, task_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Client) -> Client:
    admin = User.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)
    return client


@pytest.fixture
def run(alice: User) -> Run:
    run = Run.objects.create(user=alice, message="delete it", capability="crud", status="needs_confirmation")
    TraceEvent.objects.create(run=run, seq=1, kind="node", name="assemble", payload={"note": "<b>bold</b>"})
    Alert.objects.create(run=run, kind="fact_mismatch", key="title", message="Stated title differs")
    Alert.objects.create(run=run, kind="duplicate_form", key="tool:q", message="Two forms of one source")
    Confirmation.objects.create(run=run, action="delete_task", facts={"title": "x"})
    return run


def test_every_changelist_opens(staff_client: Client, run: Run) -> None:
    for model in ("run", "confirmation", "alert", "traceevent", "artifact"):
        assert staff_client.get(f"/admin/agent/{model}/").status_code == 200, model


def test_a_run_shows_its_trace_and_alerts_read_only(staff_client: Client, run: Run) -> None:
    page = staff_client.get(f"/admin/agent/run/{run.pk}/change/")

    body = page.content.decode()
    assert page.status_code == 200
    assert "assemble" in body and "Stated title differs" in body and "Two forms of one source" in body
    assert "&lt;b&gt;bold&lt;/b&gt;" in body  # payloads are escaped, never rendered
    assert 'name="_save"' not in body
    assert staff_client.get("/admin/agent/run/add/").status_code == 403


def test_alerts_filter_by_kind(staff_client: Client, run: Run) -> None:
    body = staff_client.get("/admin/agent/alert/?kind__exact=fact_mismatch").content.decode()

    assert "Stated title differs" in body and "Two forms of one source" not in body


def test_an_artifact_shows_its_first_lines_and_deleting_removes_the_file(
        staff_client: Client, artifact_root: Path, alice: User, website: Project) -> None:
    artifact = Artifact.objects.get(ref=classify_rows(alice, task_rows(50), [website]).ref)
    stored = artifact_root / artifact.content_path

    page = staff_client.get(f"/admin/agent/artifact/{artifact.pk}/change/").content.decode()
    assert "WEB-20" in page and "WEB-21" not in page

    staff_client.post(f"/admin/agent/artifact/{artifact.pk}/delete/", {"post": "yes"})
    assert not Artifact.objects.filter(pk=artifact.pk).exists()
    assert not stored.exists()
