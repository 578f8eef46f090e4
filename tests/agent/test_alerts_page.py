"""The Alerts page and `manage.py alerts`: alerts grouped by kind with their run's trace, for staff only;
the admin index counts the week's alerts; a run failing the audit raises audit_failed."""
from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from agent.models import Alert, Run
from agent.run.audit import run_audit_at_end
from agent.run.trace import TraceRecorder


@pytest.fixture
def alerts(alice: Any) -> list[Alert]:
    run = Run.objects.create(user=alice, message="show my tasks")
    made = [Alert.objects.create(run=run, kind="fact_mismatch", key=f"k{n}", message=f"Mismatch {n}")
            for n in range(3)]
    made.append(Alert.objects.create(run=run, kind="inspection_dropped", key="x", message="Dropped one"))
    old = Alert.objects.create(run=run, kind="audit_failed", key="old", message="Long ago")
    Alert.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=10))
    return made


def test_staff_see_alerts_grouped_by_kind_with_links_to_the_trace(admin_client: Client, alerts: list[Alert]) -> None:
    page = admin_client.get("/assistant/alerts/?since=7d")
    assert page.status_code == 200
    html = page.content.decode()
    assert "4 alerts in 2 kinds." in html
    assert html.index("fact_mismatch") < html.index("inspection_dropped")  # the most frequent first
    assert f"/admin/agent/run/{alerts[0].run_id}/change/" in html
    assert "Long ago" not in html


def test_a_bad_period_is_a_clear_error_and_others_may_not_look(admin_client: Client, client: Client,
                                                               alice: Any, alerts: list[Alert]) -> None:
    bad = admin_client.get("/assistant/alerts/?since=soon")
    assert bad.status_code == 400 and "since:" in bad.content.decode()
    client.force_login(alice)  # not staff
    assert client.get("/assistant/alerts/").status_code == 302


def test_the_admin_index_counts_the_weeks_alerts(admin_client: Client, alerts: list[Alert]) -> None:
    html = admin_client.get("/admin/").content.decode()
    assert "4 alerts in the last 7 days" in html and "/assistant/alerts/?since=7d" in html


def test_the_command_lists_alerts_since_a_period(alerts: list[Alert]) -> None:
    out = StringIO()
    call_command("alerts", "--since", "24h", stdout=out)
    text = out.getvalue()
    assert text.startswith("4 alerts since 24h ago, 2 kinds")
    assert "fact_mismatch: 3" in text and f"trace: /admin/agent/run/{alerts[0].run_id}/change/" in text
    with pytest.raises(CommandError, match="since:"):
        call_command("alerts", "--since", "0h", stdout=StringIO())


def test_a_run_that_fails_the_audit_raises_audit_failed(alice: Any) -> None:
    run = Run.objects.create(user=alice, message="delete it")
    recorder = TraceRecorder.for_run(run, resuming=False)
    recorder.tool_call("delete_task", arguments={"task_id": 4242}, result={}, facts={})
    recorder.flush()
    report = run_audit_at_end(run, recorder)
    assert not report["passed"]
    alert = Alert.objects.get(run=run, kind="audit_failed")
    assert alert.details["points"] == [1, 4]
