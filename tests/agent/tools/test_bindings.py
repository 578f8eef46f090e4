"""Parameter bindings: bound values reach the tools, the model cannot override them, failures are named."""
from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from agent.artifacts.store import artifact_open
from agent.models import Alert, Artifact, Run, TraceEvent
from agent.run.trace import TraceRecorder
from agent.tools.binding import Binding, BindingUnresolved
from agent.tools.facts import values_digest
from agent.tools.runner import ToolRunner
from pm_assistant.errors import NotFound
from projects.models import Project
from tasks.models import Task
from tests.data_layer.helpers import confirm, events, make_tasks, post_request, visible_page


def stored_rows(artifact: Artifact) -> list[dict[str, Any]]:
    with artifact_open(artifact) as handle:
        return [json.loads(line) for line in handle.read().decode("utf-8").splitlines()]


class Source:
    """A reading tool over fixed rows that counts how often it was asked."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.calls = 0

    def __call__(self, *, user: Any, status: str) -> dict[str, Any]:
        self.calls += 1
        return {"count": len(self.rows), "items": list(self.rows), "status": status}


def rows(project: Project, count: int, first_id: int = 1000) -> list[dict[str, Any]]:
    return [{"id": first_id + n, "title": f"Row {n}", "project_id": project.pk} for n in range(count)]


def scope(result: dict[str, Any]) -> list[int]:
    return sorted({row["project_id"] for row in result["items"]})


@pytest.fixture
def runner(alice: User, website: Project) -> ToolRunner:
    run = Run.objects.create(user=alice, page_context={"page": "task_list", "origin": "quick_button"})
    return ToolRunner(user=alice, run_id=run.pk, recorder=TraceRecorder(run))


@pytest.fixture
def small(runner: ToolRunner, website: Project) -> list[dict[str, Any]]:
    """Step "small": three rows, kept inline."""
    data = rows(website, 3)
    assert not runner.read("small", "list_rows", Source(data), scope=scope, status="small").externalized
    return data


@pytest.fixture
def big(runner: ToolRunner, website: Project) -> list[dict[str, Any]]:
    """Step "big": fifteen rows, more than the inline limit of ten, so stored as an artifact."""
    data = rows(website, 15, first_id=2000)
    assert runner.read("big", "list_rows", Source(data), scope=scope, status="big").externalized
    return data


def test_bulk_mark_visible_done_binds_the_ids_to_the_externalized_selection(alice: User, website: Project) -> None:
    tasks = make_tasks(alice, website, 15)
    ids = sorted(t.pk for t in tasks)
    body = post_request(alice, visible_page(tasks), action="mark_visible_done")
    assert body["status"] == "needs_confirmation" and body["confirmation"]["facts"]["count"] == 15
    done = confirm(alice, body["run_id"])
    assert done["status"] == "done" and done["data"]["count"] == 15
    assert set(Task.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"done"}

    (update,) = events(body["run_id"], "tool_call", "bulk_set_status")
    # The selection that fed the update: the last one read before it (the resume reads it again).
    selection = [e for e in events(body["run_id"], "tool_call", "select_for_bulk") if e.seq < update.seq][-1]
    ref = selection.payload["result"]["artifact"]["ref"]
    assert selection.payload["result"]["form"] == "summary" and "items" not in selection.payload["result"]
    artifact = Artifact.objects.get(ref=ref)
    assert artifact.item_count == 15
    # The resume reads the same selection again and finds it already stored: one artifact per run.
    assert Artifact.objects.filter(run_id=body["run_id"]).count() == 1
    artifact_event = [e for e in events(body["run_id"], "artifact")
                      if e.payload["artifact"]["ref"] == ref and e.seq < update.seq][-1]
    assert artifact_event.payload["step"] == "select"

    binding = [e for e in events(body["run_id"], "binding", "task_ids") if e.seq < update.seq][-1]
    assert artifact_event.seq < binding.seq < update.seq
    assert binding.payload["binding"] == "step select at $.items[*].id"
    assert binding.payload["step"] == "update" and binding.payload["count"] == 15

    artifact_ids = [row["id"] for row in stored_rows(artifact)]
    assert sorted(artifact_ids) == ids
    task_ids = update.payload["arguments"]["task_ids"]
    assert task_ids == artifact_ids
    bound = update.payload["bound"]["task_ids"]
    assert bound["binding"] == binding.payload["binding"]
    assert bound["sha256"] == values_digest(task_ids) == binding.payload["sha256"]
    assert not Alert.objects.filter(run_id=body["run_id"]).exists()



@pytest.mark.parametrize("how", ["expired", "archived"])
def test_a_card_decided_after_its_selection_expired_stores_the_selection_again(alice: User, website: Project,
                                                                             how: str) -> None:
    tasks = make_tasks(alice, website, 15)
    body = post_request(alice, visible_page(tasks), action="mark_visible_done")
    assert body["status"] == "needs_confirmation"
    # The next day: the selection stored with the card has expired (ARTIFACT_TTL) or was archived.
    past = timezone.now() - timedelta(minutes=1)
    Artifact.objects.filter(run_id=body["run_id"]).update(**{"expires_at" if how == "expired" else "archived_at": past})
    done = confirm(alice, body["run_id"])
    assert done["status"] == "done" and done["data"]["count"] == 15, done
    assert set(Task.objects.filter(pk__in=[t.pk for t in tasks]).values_list("status", flat=True)) == {"done"}
    # The approval read the tasks again and stored that selection anew, beside the old one.
    assert Artifact.objects.filter(run_id=body["run_id"], archived_at=None, expires_at__gt=timezone.now()).count() == 1

@pytest.mark.parametrize("step", ["small", "big"])
def test_a_model_typed_value_loses_to_the_binding_and_is_alerted(request: pytest.FixtureRequest, runner: ToolRunner,
                                                                 step: str) -> None:
    data = request.getfixturevalue(step)
    real = [row["id"] for row in data]
    typed = real[:2] + [999_999]  # the model "summarised" the list and invented an id
    values = runner.bind("update", {"task_ids": Binding(from_step=step, path="$.items[*].id")},
                         model_arguments={"task_ids": typed, "status": "done"})
    assert values == {"task_ids": real}
    alert = Alert.objects.get(run_id=runner.run_id, kind=Alert.Kind.BINDING_OVERRIDE)
    assert alert.key == "update:task_ids"
    assert alert.details == {"step": "update", "argument": "task_ids", "typed_sha256": values_digest(typed)}
    (binding,) = TraceEvent.objects.filter(run_id=runner.run_id, kind="binding")
    assert binding.payload["sha256"] == values_digest(real) and binding.payload["count"] == len(real)
    assert TraceEvent.objects.filter(run_id=runner.run_id, kind="alert", name="binding_override").count() == 1


def test_a_model_typed_scalar_loses_to_the_binding(runner: ToolRunner, small: list[dict[str, Any]]) -> None:
    values = runner.bind("update", {"task_id": Binding(from_step="small", path="$.items[0].id")},
                         model_arguments={"task_id": 7})
    assert values == {"task_id": small[0]["id"]}
    assert Alert.objects.get(run_id=runner.run_id, kind=Alert.Kind.BINDING_OVERRIDE).key == "update:task_id"


def test_a_model_typed_value_equal_to_the_binding_is_not_alerted(runner: ToolRunner,
                                                                 big: list[dict[str, Any]]) -> None:
    real = [row["id"] for row in big]
    values = runner.bind("update", {"task_ids": Binding(from_step="big", path="$.items[*].id")},
                         model_arguments={"task_ids": list(real)})
    assert values == {"task_ids": real}
    assert not Alert.objects.filter(run_id=runner.run_id).exists()


def _ref(runner: ToolRunner) -> str:
    ref = runner.results["big"].artifact
    assert ref is not None
    return ref


UNRESOLVABLE = [
    pytest.param(lambda ref: Binding(from_step="s9", path="$.items[*].id"), "step 's9' has no result", id="no-step"),
    pytest.param(lambda ref: Binding(from_step="small", path="$.items[*].owner_id"),
                 "nothing at $.items[*].owner_id in step small", id="inline-missing-field"),
    pytest.param(lambda ref: Binding(from_step="big", path="$.items[*].owner_id"),
                 "item 0 of {ref} has no 'owner_id'", id="artifact-missing-field"),
    pytest.param(lambda ref: Binding(artifact=ref, path="$.items[*].owner_id"),
                 "item 0 of {ref} has no 'owner_id'", id="artifact-ref-missing-field"),
    pytest.param(lambda ref: Binding(from_step="big", path="$.owner"), "{ref} has no 'owner'",
                 id="artifact-missing-meta-key"),
    pytest.param(lambda ref: Binding(from_step="small", path="$.items["), "'$.items[' is not a valid path",
                 id="inline-bad-path"),
    pytest.param(lambda ref: Binding(from_step="big", path="$.items[*"), "'$.items[*' is not a valid path",
                 id="artifact-bad-path"),
    pytest.param(lambda ref: Binding(from_step="small", path="$.items[7].id"), "nothing at $.items[7].id",
                 id="inline-index-out-of-range"),
]


@pytest.mark.parametrize(("make", "expected"), UNRESOLVABLE)
def test_an_unresolvable_binding_fails_naming_the_problem(runner: ToolRunner, small: list[dict[str, Any]],
                                                          big: list[dict[str, Any]], make: Any,
                                                          expected: str) -> None:
    ref = _ref(runner)
    with pytest.raises(BindingUnresolved) as raised:
        runner.bind("update", {"task_ids": make(ref)})
    assert expected.format(ref=ref) in raised.value.message
    assert raised.value.code == "binding_unresolved" and raised.value.field == "binding"
    assert not TraceEvent.objects.filter(run_id=runner.run_id, kind="binding").exists()


@pytest.mark.parametrize("make", [
    pytest.param(lambda ref: Binding(from_step="big", path="$.items[*].id"), id="step-items"),
    pytest.param(lambda ref: Binding(artifact=ref, path="$.items[*].id"), id="artifact-items"),
    pytest.param(lambda ref: Binding(from_step="big", path="$.count"), id="step-meta"),
    pytest.param(lambda ref: Binding(artifact=ref, path="$.items[0]"), id="artifact-jsonpath"),
])
def test_an_artifact_that_expires_while_the_run_goes_on_cannot_be_bound(
        runner: ToolRunner, big: list[dict[str, Any]], make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = _ref(runner)
    later = Artifact.objects.get(ref=ref).expires_at + timedelta(seconds=1)
    monkeypatch.setattr("agent.artifacts.store.timezone.now", lambda: later)
    with pytest.raises(BindingUnresolved) as raised:
        runner.bind("update", {"task_ids": make(ref)})
    assert f"artifact {ref} has expired" in raised.value.message


@pytest.mark.parametrize("how", ["expired", "archived"])
@pytest.mark.parametrize("path", ["$.items[*].id", "$.items[0]", "$.count"])
def test_an_artifact_expired_or_archived_before_a_run_reads_it_cannot_be_bound(
        runner: ToolRunner, big: list[dict[str, Any]], alice: User, how: str, path: str) -> None:
    ref = _ref(runner)
    past = timezone.now() - timedelta(minutes=1)
    Artifact.objects.filter(ref=ref).update(**{"expires_at" if how == "expired" else "archived_at": past})
    # A later run of the same user (a new request): the artifact is read from the database again.
    later = ToolRunner(user=alice, run_id=Run.objects.create(user=alice).pk, recorder=runner.recorder)
    with pytest.raises(BindingUnresolved) as raised:
        later.bind("update", {"task_ids": Binding(artifact=ref, path=path)})
    assert f"artifact {ref} has expired" in raised.value.message


def test_a_run_reads_an_artifact_it_stored_once(runner: ToolRunner, big: list[dict[str, Any]]) -> None:
    """The run's own artifact was checked as it was stored: binding from it twice reads no row again."""
    ref = _ref(runner)
    with CaptureQueriesContext(connection) as captured:
        first = runner.bind("update", {"task_ids": Binding(from_step="big", path="$.items[*].id")})
        again = runner.bind("update", {"task_ids": Binding(artifact=ref, path="$.items[*].id")})
    assert first == again == {"task_ids": [row["id"] for row in big]}
    assert not [q for q in captured.captured_queries if "agent_artifact" in q["sql"] or "membership" in q["sql"]]


def test_a_binding_to_someone_elses_artifact_is_not_found(runner: ToolRunner, big: list[dict[str, Any]],
                                                          carol: User) -> None:
    ref = _ref(runner)
    stranger = ToolRunner(user=carol, run_id=Run.objects.create(user=carol).pk, recorder=runner.recorder)
    with pytest.raises(NotFound) as raised:
        stranger.bind("update", {"task_ids": Binding(artifact=ref, path="$.items[*].id")})
    assert ref in raised.value.message


def test_a_bulk_update_whose_binding_fails_changes_nothing(settings: Any, alice: User, website: Project) -> None:
    # Every artifact is born expired, so the update's ids cannot be bound to the selection.
    settings.ARTIFACT_TTL = timedelta(seconds=-1)
    tasks = make_tasks(alice, website, 15)
    body = post_request(alice, visible_page(tasks), action="mark_visible_done")
    assert body["status"] == "error"
    assert Run.objects.get(pk=body["run_id"]).error_code == "binding_unresolved"
    assert "has expired" in body["reply"] and "Nothing was changed" in body["reply"]
    assert not Task.objects.filter(status="done").exists()
    assert not events(body["run_id"], "tool_call", "bulk_set_status")
    assert not events(body["run_id"], "binding")


@pytest.mark.parametrize("size", [3, 15])
def test_a_source_fetched_twice_in_a_run_is_reused_by_reference(runner: ToolRunner, website: Project,
                                                                size: int) -> None:
    source = Source(rows(website, size))
    first = runner.read("s1", "list_rows", source, scope=scope, status="todo")
    again = runner.read("s2", "list_rows", source, scope=scope, status="todo")
    assert source.calls == 1
    assert again is first and runner.results["s2"].artifact == runner.results["s1"].artifact
    assert runner.results["s2"].step == "s2" and runner.count("s2") == size
    assert TraceEvent.objects.filter(run_id=runner.run_id, kind="tool_call").count() == 1
    (reuse,) = TraceEvent.objects.filter(run_id=runner.run_id, kind="node", name="reuse")
    # The trace names the artifact the reuse holds (none for an inline result).
    assert {k: v for k, v in reuse.payload.items() if k != "artifact"} == {"step": "s2", "from_step": "s1",
                                                                           "tool": "list_rows"}
    stored = runner.classified["s1"]
    assert reuse.payload["artifact"] == (stored.ref if stored.externalized else None)
    assert Artifact.objects.filter(run_id=runner.run_id).count() == (1 if size > 10 else 0)
    # Both steps bind to the same values.
    path = "$.items[*].id"
    assert runner.bind("a", {"ids": Binding(from_step="s1", path=path)}) == \
        runner.bind("b", {"ids": Binding(from_step="s2", path=path)})


def test_a_source_with_other_arguments_is_fetched_again(runner: ToolRunner, website: Project) -> None:
    source = Source(rows(website, 3))
    runner.read("s1", "list_rows", source, scope=scope, status="todo")
    runner.read("s2", "list_rows", source, scope=scope, status="done")
    assert source.calls == 2
    assert TraceEvent.objects.filter(run_id=runner.run_id, kind="tool_call").count() == 2
    assert not TraceEvent.objects.filter(run_id=runner.run_id, kind="node", name="reuse").exists()
