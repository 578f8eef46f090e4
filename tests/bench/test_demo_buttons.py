"""CI's press of the demo's buttons (bench/demo_buttons.py): every button of the table, sent as the browser sends it."""
from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agent.models import Run
from agent.page_context.schema import PageContext
from agent.routing.quick_actions import QUICK_ACTIONS, quick_actions_for
from bench.demo_buttons import buttons_to_press, page_context_of, page_url, press
from pm_assistant.vocabulary import PAGES
from projects.models import Project
from tests.helpers import make_tasks


def test_the_buttons_pressed_are_the_quick_action_tables_each_once() -> None:
    table = [button for entries in QUICK_ACTIONS.values() for button in entries]
    assert Counter(buttons_to_press()) == Counter(table)
    assert {button.on_rows for button in buttons_to_press()} == {True, False}


@pytest.mark.django_db
def test_every_pages_context_is_read_as_the_browser_sends_it(alice: User, website: Project) -> None:
    task = make_tasks(alice, website, 1)[0]
    client = Client()
    client.force_login(alice)
    for page in PAGES:
        context = page_context_of(client, page_url(page, task))
        assert PageContext.model_validate({**context, "origin": "sidebar"}).page == page


@pytest.mark.django_db
def test_a_row_button_is_sent_with_the_rows_task_selected(alice: User, website: Project) -> None:
    done, todo = make_tasks(alice, website, 2)
    done.status = "done"
    done.save(update_fields=["status"])
    client = Client()
    client.force_login(alice)
    (mark_done,) = [b for b in quick_actions_for("task_list", rows=True) if b.action == "mark_done"]

    run = Run.objects.get(pk=press(client, alice, mark_done)["run_id"])

    # Shown only on a row whose task is not done yet: the other row's.
    assert run.status == "done" and run.page_context["selectedEntity"] == {"type": "task", "id": todo.pk}
    todo.refresh_from_db()
    assert todo.status == "done" and run.page_context["origin"] == "task_row"
