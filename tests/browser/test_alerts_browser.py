"""The Alerts page in a real Chromium: staff reach it from the admin index's weekly count, see alerts
grouped by kind, follow one to its run's trace, and change the period."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agent.models import Alert, Run

from .shell import assert_accessible
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def test_staff_go_from_the_weekly_count_to_an_alerts_trace(page: Page, live_server: Any, alice: User) -> None:
    User.objects.create_superuser("ops", "ops@example.com", "unused-password")
    run = Run.objects.create(user=alice, message="what is at risk?", capability="risk")
    Alert.objects.create(run=run, kind="inspection_dropped", key="a", message="The model asked for one look too many")
    Alert.objects.create(run=run, kind="fact_mismatch", key="b", message="The model said title is 'Fix signup page'")
    Alert.objects.create(run=run, kind="fact_mismatch", key="c", message="The model said status is 'blocked'")
    log_in(page, live_server.url, "ops", "/admin/")

    page.get_by_role("link", name="3 alerts in the last 7 days").click()
    expect(page).to_have_url(f"{live_server.url}/assistant/alerts/?since=7d")
    expect(page.get_by_text("3 alerts in 2 kinds.")).to_be_visible()
    headings = page.get_by_role("heading", level=2)
    expect(headings.first).to_contain_text("fact_mismatch")
    assert_accessible(page)

    page.get_by_label("Since").select_option("24h")
    expect(page).to_have_url(f"{live_server.url}/assistant/alerts/?since=24h")
    page.get_by_role("link", name=f"trace of run {str(run.pk)[:8]}").first.click()
    expect(page).to_have_url(f"{live_server.url}/admin/agent/run/{run.pk}/change/")
    expect(page.get_by_text("what is at risk?").first).to_be_visible()
