"""A query's explanation states only numbers and dates the server gave the model, or the template answers.

The explanation comes from the scripted model over real HTTP through the openai SDK.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from agent.models import Alert
from tasks.services import task_create
from tests.helpers import LLMStub, post_request, route_json

PAGE = {"page": "task_list", "origin": "sidebar"}


def _three_todo(alice: Any, website: Any) -> list[Any]:
    return [task_create(actor=alice, project=website, title=title, due_date=date(2026, 12, 4))
            for title in ("Draft the launch email", "Review the pricing page", "Archive old banners")]


def test_an_explanation_with_a_number_the_query_did_not_return_gives_way_to_the_template(
        alice: Any, website: Any, openai_settings: LLMStub) -> None:
    _three_todo(alice, website)
    openai_settings.push_json(route_json("query", status_filter=["todo"]))
    openai_settings.push_text("You have 987654 tasks to do; the first is due 2026-12-09.")
    run = post_request(alice, PAGE, message="show todo tasks")

    assert run["status"] == "done"
    assert run["reply"].startswith("3 matching tasks (to do):")  # the status it was narrowed to, said
    alert = Alert.objects.get(run_id=run["run_id"])
    assert alert.kind == "number_mismatch"
    # Not a count, date or key of the result (a small number could be a task id the result names).
    assert alert.details["numbers"] == ["2026-12-09", "987654"]


def test_an_explanation_that_keeps_to_the_result_is_the_reply(
        alice: Any, website: Any, openai_settings: LLMStub) -> None:
    tasks = _three_todo(alice, website)
    text = f"You have three tasks to do, all due 2026-12-04 (December 4); {tasks[0].key} is the first."
    openai_settings.push_json(route_json("query", status_filter=["todo"]))
    openai_settings.push_text(text)
    run = post_request(alice, PAGE, message="show todo tasks")

    assert run["reply"] == text
    assert not Alert.objects.filter(run_id=run["run_id"]).exists()


def test_one_task_found_is_said_in_the_singular() -> None:
    from agent.capabilities.query.answers import template_reply
    from agent.routing.decision import Slots

    one = {"count": 1, "items": [{"key": "WEB-2", "title": "Write the notes"}]}
    assert template_reply(one, Slots()) == "1 matching task: WEB-2 “Write the notes”."
    assert template_reply(one, Slots(preset="my_overdue")) == "1 overdue task assigned to you: WEB-2 “Write the notes”."
    two = {"count": 2, "items": one["items"] * 2}
    assert template_reply(two, Slots()).startswith("2 matching tasks: ")
