"""One quick-action table feeds the sidebar's buttons and clarify's suggestions, and the fast path routes them all."""
from __future__ import annotations

from typing import Any, get_args

import pytest

from agent.assembler.views import RouterCtx
from agent.capabilities.clarify import clarify
from agent.graph.graph import CAPABILITY_NODES
from agent.page_context.schema import Page
from agent.routing.fast_path import FAST_PATH
from agent.routing.quick_actions import QUICK_ACTIONS
from agent.templatetags.assistant import action_label, assistant_quick_actions


def test_every_quick_action_of_the_table_is_on_the_fast_path() -> None:
    entries = [(entry.origin, entry.action) for actions in QUICK_ACTIONS.values() for entry in actions]
    assert entries
    assert [e for e in entries if e not in FAST_PATH] == []


def test_every_page_a_request_can_come_from_has_quick_actions() -> None:
    assert set(get_args(Page)) <= set(QUICK_ACTIONS)


@pytest.mark.parametrize("page", get_args(Page))
def test_clarify_suggests_the_table_actions_of_the_page(page: str) -> None:
    state: Any = {"router_ctx": RouterCtx(page=page, origin="sidebar"), "route": None}
    suggestions = clarify(state, None)["outcome"]["data"]["suggestions"]  # type: ignore[arg-type]
    assert suggestions == [{"action": e.action, "label": e.label} for e in QUICK_ACTIONS[page]]
    # The chips under a clarification are sent as quick buttons.
    assert all(("quick_button", s["action"]) in FAST_PATH for s in suggestions)


def test_the_sidebar_shows_the_same_table() -> None:
    task_selected = [("data-page", "task_list"), ("data-selected-entity", '{"type":"task","id":7}')]
    assert assistant_quick_actions([("data-page", "home")]) == [
        {"action": e.action, "label": e.label, "origin": e.origin} for e in QUICK_ACTIONS["home"]]
    assert [a["action"] for a in assistant_quick_actions(task_selected)] == [
        e.action for e in QUICK_ACTIONS["task_detail"]]
    assert action_label("delete_task") == "Delete task" and action_label("my_overdue") == "My overdue tasks"


def test_the_tables_cannot_be_changed_at_run_time() -> None:
    with pytest.raises(TypeError):
        QUICK_ACTIONS["home"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        CAPABILITY_NODES["crud"] = CAPABILITY_NODES["query"]  # type: ignore[index]
    assert all(isinstance(actions, tuple) for actions in QUICK_ACTIONS.values())
