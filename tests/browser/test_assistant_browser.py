"""The assistant sidebar in a real Chromium: quick actions, free text, confirmation cards."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agent.models import Run
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


@pytest.fixture
def overdue(alice: User, website: Project) -> Task:
    return task_create(actor=alice, project=website, title="Renew the TLS certificate", assignee=alice,
                       due_date=timezone.localdate() - timedelta(days=3))


def test_a_quick_button_answers_in_the_sidebar_without_the_model(page: Page, live_server: Any,
                                                                  overdue: Task) -> None:
    log_in(page, live_server.url, "alice")
    page.click("#assistant [data-assistant-action=my_overdue]")
    run = page.locator("#assistant-transcript .run").last
    expect(run.locator(".run-items")).to_contain_text("Renew the TLS certificate")
    expect(run.locator(".run-meta")).to_contain_text("0 model calls")
    stored = Run.objects.get()
    assert (stored.action, stored.via, stored.llm_calls) == ("my_overdue", "fast_path", 0)
    assert stored.page_context["origin"] == "workbench" and stored.page_context["page"] == "home"


def test_a_delete_typed_in_the_sidebar_waits_for_approval_then_removes_the_row(
        page: Page, live_server: Any, alice: User, website: Project) -> None:
    doomed = task_create(actor=alice, project=website, title="Old landing page experiment")
    task_create(actor=alice, project=website, title="Its subtask", parent=doomed)
    log_in(page, live_server.url, "alice", "/tasks/")
    row = page.locator(f"tr[data-entity-id='{doomed.pk}']")
    expect(row).to_have_count(1)
    page.fill("#assistant-message", f"delete task #{doomed.pk}")
    page.click(".assistant-form button[type=submit]")
    card = page.locator(".confirm-card")
    expect(card).to_contain_text("Old landing page experiment")
    expect(card).to_contain_text("Its subtask")
    # Said once, on the card; the button names what it does.
    expect(page.locator("#assistant-transcript .run").last).to_contain_text("cannot be undone")
    assert page.locator("#assistant-transcript .run").last.inner_text().count("cannot be undone") == 1
    expect(card.locator("button[data-confirm-run]")).to_have_text(f"Delete WEB-{doomed.pk}")
    assert Task.objects.filter(pk=doomed.pk).exists()
    card.locator("button[data-confirm-run]").click()
    expect(page.locator(".run-done .run-reply").last).to_contain_text("Deleted")
    expect(row).to_have_count(0)
    assert not Task.objects.filter(pk=doomed.pk).exists()


def test_reject_on_a_row_delete_keeps_the_task(page: Page, live_server: Any, alice: User,
                                               website: Project) -> None:
    kept = task_create(actor=alice, project=website, title="Keep me")
    log_in(page, live_server.url, "alice", "/tasks/")
    page.locator(f"tr[data-entity-id='{kept.pk}'] [data-assistant-action=delete_task]").click()
    card = page.locator(".confirm-card")
    expect(card).to_contain_text("Keep me")
    card.locator("button:has-text('Reject')").click()
    expect(page.locator(".confirm-card")).to_have_count(0)
    expect(page.locator(f"tr[data-entity-id='{kept.pk}']")).to_have_count(1)
    assert Task.objects.filter(pk=kept.pk).exists()
    assert Run.objects.get().page_context["origin"] == "task_row"


def test_a_row_mark_done_updates_the_list(page: Page, live_server: Any, alice: User, website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Ship the footer")
    log_in(page, live_server.url, "alice", "/tasks/?status=todo")
    page.locator(f"tr[data-entity-id='{task.pk}'] [data-assistant-action=mark_done]").click()
    expect(page.locator("#assistant-transcript .run-done")).to_have_count(1)
    expect(page.locator(f"tr[data-entity-id='{task.pk}']")).to_have_count(0)
    task.refresh_from_db()
    assert task.status == "done"


def test_the_sidebar_says_when_the_model_is_offline(page: Page, live_server: Any, alice: User) -> None:
    log_in(page, live_server.url, "alice")
    expect(page.locator("#assistant .assistant-badge")).to_have_text("Offline model")


def test_deleting_the_task_on_its_own_page_goes_back_to_the_list(page: Page, live_server: Any, alice: User,
                                                                 website: Project) -> None:
    task = task_create(actor=alice, project=website, title="Retire the old blog")
    log_in(page, live_server.url, "alice", f"/tasks/{task.pk}/")
    page.click("#assistant [data-assistant-action=delete_task]")
    page.locator(".confirm-card button[data-confirm-run]").click()
    expect(page).to_have_url(f"{live_server.url}/tasks/")
    assert not Task.objects.filter(pk=task.pk).exists()
