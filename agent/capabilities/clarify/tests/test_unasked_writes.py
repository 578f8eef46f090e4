"""A write the message names but does not ask for is never done: answered, or offered on a card.

The reader (agent/reading/) reads "don't …" and "should I …?" whole: the offline provider answers
by itself, and a router model that routes such a message to a write is declined by the intent
check, the clarify node giving the same answer, with no card. A change found in a message the
reader cannot read whole ("just kidding", a plan, a condition) is offered on a card, offline and
under a model alike: nothing changes unless the user approves it.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from agent.models import Confirmation, TraceEvent
from tasks.models import Task, TaskActivity
from tasks.services import task_create
from tests.data_layer.helpers import confirm
from tests.helpers import LLMStub, ask, route_json, selected_page


@pytest.fixture
def task(alice: Any, website: Any) -> Task:
    return task_create(actor=alice, project=website, title="Fix login page", assignee=alice, status="in_progress")


def _unchanged(task: Task) -> bool:
    task.refresh_from_db()
    return task.status == "in_progress" and task.priority == "P2" and not TaskActivity.objects.exclude(
        kind="created").exists() and not Confirmation.objects.exists()


def _route_event(run_id: str) -> dict[str, Any]:
    payload: dict[str, Any] = TraceEvent.objects.get(run_id=run_id, kind=TraceEvent.Kind.NODE, name="route").payload
    return payload


def test_offline_a_question_says_what_the_change_would_do_and_how_to_ask(alice: Any, task: Task) -> None:
    body = ask(alice, f"should I mark task {task.pk} as done?", selected_page(task))
    assert body["status"] == "done" and body["confirmation"] is None
    assert body["reply"] == (f"If you asked me to mark task {task.pk} as done, the change would take effect at once "
                             f"and could be undone for 10 minutes. I have not changed anything; to do it, say "
                             f"“Mark task {task.pk} as done”.")
    assert body["data"]["unasked"] == "question"
    assert _unchanged(task)


def test_offline_a_negation_in_chinese_is_answered_in_chinese(alice: Any, task: Task) -> None:
    body = ask(alice, f"别把任务{task.pk}标记为完成", selected_page(task))
    assert body["reply"] == f"好的，我不会把任务{task.pk}标记为已完成。什么都没有改。"
    assert _unchanged(task)


def test_offline_a_retracted_delete_deletes_nothing_and_offers_nothing(alice: Any, task: Task) -> None:
    body = ask(alice, f"delete task {task.pk}. just kidding", selected_page(task))
    assert body["confirmation"] is None and body["reply"] == f"Understood: I won't delete task {task.pk}. " \
        "Nothing was changed.", body
    assert Task.objects.filter(pk=task.pk).exists()


@pytest.mark.parametrize("message", ["I'll mark task {id} done myself later", "我明天再把任务{id}标记为完成",
                                     "once QA signs off, mark task {id} done", "产品经理让我把任务{id}标记为完成",
                                     "我已经把任务{id}标记为完成了", "mark task {id} as done 👍"])
def test_offline_a_change_in_a_message_not_read_whole_is_offered_on_a_card(alice: Any, task: Task,
                                                                           message: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "needs_confirmation", body
    assert body["confirmation"]["facts"]["change"] in (f"Change {task.key} “Fix login page”: status done",
                                                       f"修改 {task.key} “Fix login page”：状态 已完成")
    task.refresh_from_db()
    assert task.status == "in_progress"
    assert _route_event(body["run_id"])["intent"]["mood"] == "unread"


def test_offline_on_a_page_with_no_task_the_answer_names_none_and_asks_for_a_key(alice: Any, task: Task) -> None:
    home = {"page": "home", "origin": "sidebar"}
    assert ask(alice, "不要删除任何任务", home)["reply"] == "好的，我不会删除任何任务。什么都没有改。"
    assert ask(alice, "don't delete any task", home)["reply"] == \
        "Understood: I won't delete any task. Nothing was changed."
    body = ask(alice, "should I delete a task?", home)
    assert body["reply"] == ("If you asked me to delete a task, I would first show a card, and the task is deleted "
                             "only when you approve it. I have not changed anything; to do it, say "
                             "“Delete task KEY” with the task's key in place of KEY.")
    # With a task on the page, "this task" is the one it shows.
    assert ask(alice, "don't delete this task", selected_page(task))["reply"] == \
        "Understood: I won't delete this task. Nothing was changed."
    assert Task.objects.filter(pk=task.pk).exists() and _unchanged(task)


@pytest.mark.parametrize("message", ["I refuse to mark the visible tasks done", "not mark visible tasks as done",
                                     "mark all visible tasks done is a bad idea",
                                     "Bob will mark all visible tasks done", "don't mark the visible tasks done"])
def test_offline_a_bulk_write_named_but_not_asked_changes_no_visible_task(alice: Any, website: Any,
                                                                          message: str) -> None:
    rows = [task_create(actor=alice, project=website, title=f"Row {n}") for n in range(2)]
    page = {"page": "task_list", "origin": "sidebar", "visibleEntityIds": [t.pk for t in rows]}
    body = ask(alice, message, page)
    assert body["status"] in ("done", "needs_confirmation"), body
    assert (body["status"] == "done") == bool(body["data"].get("unasked"))
    assert not Task.objects.filter(status="done").exists()


def test_offline_the_polite_request_still_runs_at_once(alice: Any, task: Task) -> None:
    body = ask(alice, f"could you set task {task.pk} to P0?", selected_page(task))
    assert body["status"] == "done" and body["confirmation"] is None
    task.refresh_from_db()
    assert task.priority == "P0"


@pytest.mark.parametrize("message", ["don't mark task {id} as done", "should I mark task {id} as done?",
                                     "不要把任务{id}设为完成", "要不要把任务{id}标记为完成？"])
def test_a_routers_write_for_such_a_message_is_declined_without_a_card(openai_settings: LLMStub, alice: Any,
                                                                       task: Task, message: str) -> None:
    openai_settings.push_json(route_json("crud", 0.99, operation="update", status="done", task_id=task.pk))
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "done" and body["confirmation"] is None, body
    assert body["route"] == {"capability": "clarify", "via": "llm_router"}
    assert _unchanged(task)
    intent = _route_event(body["run_id"])["intent"]
    assert intent["verdict"] == "declined" and intent["mood"] != "request"
    assert intent["model_kind"] == intent["rules_kind"] == f"update task {task.pk}: status done"
    assert openai_settings.calls == 1


@pytest.mark.parametrize("message", ["mark task {id} as done -- just kidding, leave it", "我不想把任务{id}设为完成",
                                     "set task {other} to done, sorry I meant task {id}"])
def test_a_routers_write_for_a_message_not_read_whole_waits_on_a_card(openai_settings: LLMStub, alice: Any,
                                                                      website: Any, task: Task, message: str) -> None:
    other = task_create(actor=alice, project=website, title="Other", status="in_progress")
    # The model writes the task named first: for a correction, the one the user took back.
    first = other if "{other}" in message else task
    openai_settings.push_json(route_json("crud", 0.99, operation="update", status="done", task_id=first.pk))
    body = ask(alice, message.format(id=task.pk, other=other.pk), selected_page(task))
    assert body["status"] == "needs_confirmation", body
    assert set(Task.objects.values_list("status", flat=True)) == {"in_progress"}


@pytest.mark.parametrize("message", ["set task {other} to done, sorry I meant task {id}",
                                     "把任务{other}标记为完成，不对，是任务{id}"])
def test_a_correction_moves_the_routers_write_to_the_task_meant(openai_settings: LLMStub, alice: Any, website: Any,
                                                               task: Task, message: str) -> None:
    """The model wrote the task taken back; the card states the one the user meant, and approving it changes
    only that one."""
    other = task_create(actor=alice, project=website, title="Other", status="in_progress")
    openai_settings.push_json(route_json("crud", 0.99, operation="update", status="done", task_id=other.pk))
    body = ask(alice, message.format(id=task.pk, other=other.pk), selected_page(task))
    assert body["status"] == "needs_confirmation", body
    intent = _route_event(body["run_id"])["intent"]
    assert intent["verdict"] == "differs" and intent["rules_task_id"] == task.pk, intent
    assert task.title in body["reply"] and other.title not in body["reply"], body["reply"]
    assert confirm(alice, body["run_id"])["status"] == "done"
    task.refresh_from_db()
    other.refresh_from_db()
    assert task.status == "done" and other.status == "in_progress"


def test_the_same_write_asked_for_runs_and_the_check_agrees(openai_settings: LLMStub, alice: Any, task: Task) -> None:
    openai_settings.push_json(route_json("crud", 0.99, operation="update", status="done", task_id=task.pk))
    body = ask(alice, f"could you mark task {task.pk} as done?", selected_page(task))
    assert body["status"] == "done" and body["confirmation"] is None
    task.refresh_from_db()
    assert task.status == "done"
    assert _route_event(body["run_id"])["intent"]["verdict"] == "agrees"


def test_the_sidebar_shows_the_answer(alice: Any, task: Task) -> None:
    browser = Client()
    browser.force_login(alice)
    page = json.dumps({"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk}})
    response = browser.post("/assistant/request/", {"message": f"don't mark task {task.pk} as done",
                                                    "page_context": page}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert f"<p>Understood: I won't mark task {task.pk} as done. Nothing was changed.</p>" in response.content.decode()
    assert _unchanged(task)


@pytest.mark.parametrize(("message", "title"), [("create a task: don't forget the milk", "don't forget the milk"),
                                                ("add task never deploy on fridays", "never deploy on fridays"),
                                                ('create task "Don\'t panic"', "Don't panic")])
def test_a_new_tasks_title_is_data_not_a_negation(alice: Any, website: Any, message: str, title: str) -> None:
    page = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}
    body = ask(alice, message, page)
    assert body["status"] == "done", body
    assert list(Task.objects.values_list("title", flat=True)) == [title]


def test_a_negated_create_creates_nothing(alice: Any, website: Any) -> None:
    page = {"page": "project_detail", "origin": "sidebar", "routeParams": {"projectId": website.pk}}
    body = ask(alice, "don't create a task called Release notes", page)
    assert body["data"]["unasked"] == "negated" and not Task.objects.exists()


@pytest.mark.parametrize(("message", "said"), [
    ("don't assign task {id} to carol", "Understood: I won't assign task {id} to carol. Nothing was changed."),
    ("不要把任务{id}分配给carol", "好的，我不会把任务{id}分配给carol。什么都没有改。"),
    ("should I rename task {id} to Launch plan?", "If you asked me to rename task {id} to “Launch plan”,"),
])
def test_an_assign_or_rename_not_asked_for_is_answered(alice: Any, task: Task, message: str, said: str) -> None:
    body = ask(alice, message.format(id=task.pk), selected_page(task))
    assert body["status"] == "done" and body["reply"].startswith(said.format(id=task.pk)), body
    assert _unchanged(task) and task.title == "Fix login page" and task.assignee == alice


def test_a_query_names_the_filter_it_could_not_use(alice: Any, carol: Any, task: Task) -> None:
    body = ask(alice, "show tasks assigned to carol and assigned to dave", {"page": "home", "origin": "sidebar"})
    assert body["reply"].startswith("I couldn't use 'assigned to dave', so the list is not narrowed by it.\n"
                                    "No matching tasks (assigned to carol)."), body
    # A question the reader knows a capability for is that capability, never a project named "next".
    nextup = ask(alice, "what should I work on next?", {"page": "home", "origin": "sidebar"})
    assert nextup["route"]["capability"] == "what_next" and "None of your projects" not in nextup["reply"]
    unclear = ask(alice, "what should I bring to the offsite?", {"page": "home", "origin": "sidebar"})
    assert unclear["route"]["capability"] == "clarify" and "None of your projects" not in unclear["reply"]
