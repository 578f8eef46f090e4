"""One quick-action table feeds the fast path, the sidebar's buttons, the row buttons and clarify's suggestions."""
from __future__ import annotations

from typing import Any

import pytest

from agent.capabilities.clarify.node import clarify
from agent.context.three_views import RouterCtx
from agent.graph.graph import CAPABILITY_NODES
from agent.models import Run
from agent.page_context.schema import EntityNames
from agent.registry import BY_NAME
from agent.routing.fast_path import FAST_PATH, fast_path_route
from agent.routing.quick_actions import QUICK_ACTIONS, quick_actions_for
from agent.templatetags.assistant import action_label, assistant_quick_actions, assistant_row_actions
from agent.web.run_partial import suggested_actions
from pm_assistant.vocabulary import PAGES


def test_every_quick_action_routes_by_the_table_to_its_declared_capability() -> None:
    entries = [entry for actions in QUICK_ACTIONS.values() for entry in actions]
    assert entries
    for entry in entries:
        route = fast_path_route(origin=entry.origin, action=entry.action)
        assert (route.capability, route.slots, route.via) == (entry.capability, entry.slots, "fast_path")
        assert entry.capability in BY_NAME
    # Nothing is on the fast path that no page offers.
    assert set(FAST_PATH) == {(e.origin, e.action) for e in entries}


def test_every_page_declares_its_quick_actions() -> None:
    assert set(QUICK_ACTIONS) == set(PAGES)
    assert all(entry.page == page for page, entries in QUICK_ACTIONS.items() for entry in entries)


@pytest.mark.parametrize("page", PAGES)
def test_clarify_suggests_the_sidebar_actions_of_the_page(page: Any) -> None:
    state: Any = {"router_ctx": RouterCtx(page=page, origin="sidebar"), "route": None,
                  "names": EntityNames(project_name="Website Redesign")}
    suggestions = clarify(state, None)["outcome"]["data"]["suggestions"]  # type: ignore[arg-type]
    # A capability never holds the origin: clarify names actions, the sidebar adds each entry's origin.
    assert suggestions == [{"action": e.action, "label": e.label} for e in quick_actions_for(page)]
    run = Run(page_context={"page": page, "origin": "sidebar"})
    chips = suggested_actions(run, suggestions)
    assert [c.action for c in chips] == [s["action"] for s in suggestions]
    assert all((c.origin, c.action) in FAST_PATH for c in chips)


def test_an_unclear_message_on_a_task_page_suggests_the_task_actions() -> None:
    """The task page names itself, so clarify offers actions on that task, not on a list."""
    state: Any = {"router_ctx": RouterCtx(page="task_detail", origin="sidebar"), "route": None,
                  "names": EntityNames(project_name="Website Redesign")}
    actions = [s["action"] for s in clarify(state, None)["outcome"]["data"]["suggestions"]]  # type: ignore[arg-type]
    assert actions == [entry.action for entry in quick_actions_for("task_detail")]
    on_lists = {entry.action for entries in QUICK_ACTIONS.values() for entry in entries
                if entry.slots.scope == "visible"}
    assert on_lists and on_lists.isdisjoint(actions)
    assert any(entry.slots.scope == "selected" for entry in quick_actions_for("task_detail"))


def test_the_sidebar_and_the_rows_show_the_same_table() -> None:
    assert assistant_quick_actions({}, [("data-page", "home")]) == quick_actions_for("home")
    assert assistant_quick_actions({"can_write": True}, [("data-page", "task_detail")]) == \
        quick_actions_for("task_detail")
    rows = assistant_row_actions([("data-page", "task_list")])
    assert rows and rows == quick_actions_for("task_list", rows=True)
    assert {q.origin for q in rows} == {"task_row"}
    assert assistant_quick_actions({}, [("data-page", "nowhere")]) == ()


def test_a_button_changes_tasks_exactly_when_its_capability_writes() -> None:
    entries = [entry for entries in QUICK_ACTIONS.values() for entry in entries]
    assert all(entry.changes_tasks == BY_NAME[entry.capability].writes for entry in entries)
    assert {True, False} == {entry.changes_tasks for entry in QUICK_ACTIONS["task_list"]}


def test_a_viewer_is_not_offered_the_buttons_that_change_tasks() -> None:
    detail = quick_actions_for("task_detail")
    assert assistant_quick_actions({"can_write": False}, [("data-page", "task_detail")]) == tuple(
        entry for entry in detail if not entry.changes_tasks)
    listing = [("data-page", "task_list"), ("data-pagination", '{"page": 1}')]
    reading = tuple(entry for entry in quick_actions_for("task_list") if not entry.changes_tasks)
    assert reading and len(reading) < len(quick_actions_for("task_list"))
    assert assistant_quick_actions({"writable_project_ids": set()}, listing) == reading
    assert assistant_quick_actions({"writable_project_ids": {1}}, listing) == quick_actions_for("task_list")
    # A run names its action; the sidebar's label wins over a row's shorter one.
    assert action_label("delete_task") == "Delete task" and action_label("my_overdue") == "My overdue tasks"


def test_the_tables_cannot_be_changed_at_run_time() -> None:
    with pytest.raises(TypeError):
        QUICK_ACTIONS["home"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        CAPABILITY_NODES["crud"] = CAPABILITY_NODES["query"]  # type: ignore[index]
    assert all(isinstance(actions, tuple) for actions in QUICK_ACTIONS.values())


def test_a_capability_routed_but_not_built_answers_so_as_an_error() -> None:
    """node=None in the registry: the run says plainly that the capability is not available yet."""
    from agent.capabilities.common.not_built import not_built
    from agent.routing.decision import Route

    state: Any = {"route": Route(capability="weekly_report", via="fast_path")}
    outcome = not_built(state, None)["outcome"]  # type: ignore[arg-type]
    assert outcome["status"] == "error" and outcome["error_code"] == "not_available"
    assert outcome["reply"].startswith("The weekly report is not available yet")
