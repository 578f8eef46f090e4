"""Upstream once: within a run no source is fetched twice with the same arguments.

A run that waits for a confirmation runs its capability twice: once to ask, once on the user's
decision. The second pass reads its facts again on purpose (the target may have changed while the
user looked), so the rule holds per pass, and across passes only those reads repeat, never a write.
"""
from __future__ import annotations

from collections import Counter

import pytest

from agent.artifacts.refs import canonical_json
from agent.graph.graph import CAPABILITY_NODES
from agent.models import TraceEvent

WRITING_TOOLS = frozenset({"create_task", "update_task", "delete_task", "bulk_set_status"})
CONFIRMED = ("delete", "bulk_6", "bulk_15")

Call = tuple[str, str]


def passes(run_id: str) -> list[list[Call]]:
    """The run's tool calls as (tool, canonical arguments), split at each start of its capability node."""
    found: list[list[Call]] = []
    # The route's own read (facts first: the selected task's facts, shown to the router) opens the first pass.
    routed: list[Call] = []
    for event in TraceEvent.objects.filter(run_id=run_id).order_by("seq"):
        if event.kind == "node" and event.name in CAPABILITY_NODES:
            found.append([] if found else routed)
        elif event.kind == "tool_call":
            assert found or event.name == "task_facts", f"tool call {event.name} before any capability node"
            (found[-1] if found else routed).append((event.name, canonical_json(event.payload["arguments"])))
    return found


def repeated(calls: list[Call]) -> list[Call]:
    return [call for call, n in Counter(calls).items() if n > 1]


def test_no_pass_of_any_run_fetches_the_same_source_twice(suite: dict[str, str]) -> None:
    for name, run_id in suite.items():
        run_passes = passes(run_id)
        assert len(run_passes) == (2 if name in CONFIRMED else 1), name
        for calls in run_passes:
            assert not repeated(calls), (name, repeated(calls))


def test_runs_without_a_confirmation_fetch_each_source_once_in_the_whole_run(suite: dict[str, str]) -> None:
    for name, run_id in suite.items():
        if name in CONFIRMED:
            continue
        calls = [call for calls in passes(run_id) for call in calls]
        assert calls or name == "clarify", name
        assert not repeated(calls), (name, repeated(calls))


@pytest.mark.parametrize(("name", "read"), [("delete", "task_facts"), ("bulk_6", "select_for_bulk"),
                                            ("bulk_15", "select_for_bulk")])
def test_a_confirmed_run_repeats_only_its_fact_read_and_writes_once(suite: dict[str, str], name: str,
                                                                    read: str) -> None:
    asked, decided = passes(suite[name])
    # A model-routed delete of the selected task also read the task alone first, for the router (facts first).
    assert [tool for tool, _ in asked] in ([read], ["task_facts", read])
    assert {call for call in decided if call[0] not in WRITING_TOOLS} == {asked[-1]}
    writes = [tool for tool, _ in decided if tool in WRITING_TOOLS]
    assert len(writes) == 1
