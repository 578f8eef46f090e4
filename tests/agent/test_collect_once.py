"""Collect once: a run that needs the same source twice reads it once and reuses its artifact, on the trace."""
from __future__ import annotations

from typing import Any

from agent.models import Artifact, Run, TraceEvent
from agent.run.trace import TraceRecorder
from agent.tools import task_tools
from agent.tools.runner import ToolRunner
from tasks.filters import TaskFilters
from tasks.services import task_create


def test_the_same_source_twice_in_a_run_is_one_read_and_one_artifact(alice: Any, website: Any) -> None:
    for n in range(15):
        task_create(actor=alice, project=website, title=f"Row {n}", assignee=alice)
    run = Run.objects.create(user=alice, message="what is at risk, and list it")
    steps = ToolRunner(user=alice, run_id=run.pk, recorder=TraceRecorder(run))
    filters = TaskFilters(project_id=website.pk)
    first = steps.read("s1", "query_tasks", task_tools.query_tasks, scope=task_tools.rows_project_ids,
                       filters=filters)
    again = steps.read("s2", "query_tasks", task_tools.query_tasks, scope=task_tools.rows_project_ids,
                       filters=filters)
    assert first.externalized and again.ref == first.ref
    assert Artifact.objects.filter(run=run).count() == 1
    assert TraceEvent.objects.filter(run=run, kind="tool_call", name="query_tasks").count() == 1
    reuse = TraceEvent.objects.get(run=run, kind="node", name="reuse")
    assert reuse.payload == {"step": "s2", "from_step": "s1", "tool": "query_tasks", "artifact": first.ref}
    # The stored rows are indexed at the revision the read saw.
    artifact = Artifact.objects.get(ref=first.ref)
    assert artifact.source_version is not None and artifact.indexed_at is not None
    assert artifact.index_entries.count() == 15
