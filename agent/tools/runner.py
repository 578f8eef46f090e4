"""The one door to the tools: read() and write(), each traced, with the acting user handed in.

A run resolves its user once (from the session) and builds one ToolRunner; every tool call goes
through it, so each call is on the trace with its arguments, facts, bindings and result, and no
tool looks the user up again. Reads are classified (inline, or stored as an artifact) and kept by
step name: a source is fetched once, later steps hold its reference, and bindings fill arguments
from it.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from agent.artifacts.classify import Classified, result_classify
from agent.artifacts.refs import jsonable
from agent.artifacts.store import artifact_get_for_user, artifact_is_expired, artifact_open
from agent.models import Alert, Artifact, Run, TraceEvent
from agent.run.live import RunStopped
from agent.run.trace import TraceRecorder
from pm_assistant.errors import ApplicationError
from tasks.revision import task_revision

from .binding import Binding, BindingUnresolved, StepResult, binding_resolve
from .facts import is_one_record, values_digest

# Rows a step keeps for showing the user (never for a prompt): the first page of a result.
SHOWN_ROWS = 10
# Arguments the trace leaves out: the user is the run's, the view is ExecCtx, the run id is the trace's own.
_HANDED_IN = frozenset({"user", "ctx", "run_id"})


def _shown(arguments: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in arguments.items() if k not in _HANDED_IN}


@dataclass
class ToolRunner:
    """The tool calls of one run, as the run's user."""

    user: User
    # The run's id only: the Run row carries the whole page context, which tools must not read.
    run_id: UUID
    recorder: TraceRecorder
    results: dict[str, StepResult] = field(default_factory=dict)
    classified: dict[str, Classified] = field(default_factory=dict)
    shown: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _fetched: dict[str, str] = field(default_factory=dict)
    # The artifacts this runner stored or found again, by ref: each holds exactly what the user's own
    # scoped read returned in this invocation, rows, figures and projects (artifacts.classify), so the
    # user owns it and sees its projects as of that read; any other ref is read and checked again
    # (artifact_get_for_user).
    _stored: dict[str, Artifact] = field(default_factory=dict)
    # Ids a server lookup yielded (a project found by its name), by argument name: the binding that
    # resolved each and its value's digest. A later call passing that value under that name is bound.
    _lookups: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Whether a stop may reach the run while it writes. A run that commits once is seen by no one before it
    # ends (agent.run.service.run_request): no stop can reach it, so its writes need no guard, and when it
    # first wrote (``wrote_at``) is stored with its outcome.
    guarded: bool = True
    wrote_at: datetime | None = None

    def read(self, step: str, tool: str, fn: Callable[..., Any], /, *,
             scope: Callable[[Any], list[int]], bound: Mapping[str, str] | None = None,
             reuse: bool = True, **arguments: Any) -> Classified:
        """Run a reading tool for a step, classify its result (inline or artifact) and keep it.

        The trace gets the classified form: an externalized result appears there as its
        ArtifactRef and summary, never as rows. ``bound`` names the arguments filled from bindings;
        ``reuse=False`` reads again even if the run read the same source (a re-check after a write).
        """
        shown = _shown(arguments)
        key = values_digest({"tool": tool, "arguments": shown})
        if reuse and key in self._fetched:
            # Upstream once: the same source in the same run is reused by reference.
            earlier = self._fetched[key]
            self.results[step] = self.results[earlier].model_copy(update={"step": step})
            self.classified[step], self.shown[step] = self.classified[earlier], self.shown[earlier]
            reused = self.classified[earlier]
            self.recorder.node("reuse", step=step, from_step=earlier, tool=tool,
                               artifact=reused.ref if reused.externalized else None)
            return self.classified[step]
        binding_info = self._binding_info(bound, arguments)
        # The task log's revision before the read: a change after it makes the stored result's index stale.
        # One record's facts are never indexed, so their read needs none.
        revision = None if is_one_record(fn) else task_revision()
        try:
            result = fn(user=self.user, **arguments)
        except ApplicationError as exc:
            self.recorder.tool_call(tool, arguments=shown, error=f"{exc.code}: {exc.message}", bound=binding_info)
            raise
        classified = result_classify(owner=self.user, tool=tool, arguments=jsonable(shown), result=result,
                                     project_ids=scope(result), run_id=self.run_id, source_version=revision)
        self.shown[step] = list(result.get("items", []))[:SHOWN_ROWS] if isinstance(result, dict) else []
        if classified.externalized:
            assert classified.artifact is not None
            self.recorder.tool_call(tool, arguments=shown, result={"artifact": classified.artifact.as_dict(),
                                                                   "form": "summary", "summary": classified.text},
                                    bound=binding_info)
            self.recorder.event(
                TraceEvent.Kind.ARTIFACT, tool, step=step, artifact=classified.artifact.as_dict(),
                previews=[{"ref": classified.ref, "start": p.start, "end": p.end, "text": p.text,
                           "source_sha256": p.source_sha256} for p in classified.previews])
        else:
            self.recorder.tool_call(tool, arguments=shown, result=result, bound=binding_info)
        self.results[step] = StepResult(step=step, data=classified.data,
                                        artifact=classified.artifact.ref if classified.artifact else None)
        self.classified[step] = classified
        self._fetched[key] = step
        if classified.stored is not None:
            self._stored[classified.ref] = classified.stored
        return classified

    def write[T](self, tool: str, fn: Callable[..., T], /, *, facts: Mapping[str, dict[str, Any]] | None = None,
                 bound: Mapping[str, str] | None = None, **arguments: Any) -> T:
        """Run a writing tool; application errors are traced and re-raised for the capability to explain.

        ``facts`` are the policy facts the call relies on, each with its source; ``bound`` names the
        arguments the runtime filled from bindings (argument → binding description).
        """
        shown = _shown(arguments)
        binding_info = self._binding_info(bound, arguments)
        try:
            result = self._write_unless_stopped(tool, fn, arguments)
        except ApplicationError as exc:
            self.recorder.tool_call(tool, arguments=shown, error=f"{exc.code}: {exc.message}",
                                    facts=dict(facts or {}), bound=binding_info)
            raise
        self.recorder.tool_call(tool, arguments=shown, result=result, facts=dict(facts or {}), bound=binding_info)
        return result

    def _write_unless_stopped[T](self, tool: str, fn: Callable[..., T], arguments: Mapping[str, Any]) -> T:
        """Write only if the run's owner has not stopped it, and mark the run as having written, atomically.

        The run's row is locked for the check and the write together: a stop (agent.run.service.run_stop,
        one conditional update of the same row) lands either before, and nothing is written, or after,
        and is refused because the run has written.
        """
        with transaction.atomic():
            if self.guarded:
                # One statement: it locks the row, refuses a stopped run and marks the write, undone with it
                # if the write fails.
                marked = Run.objects.filter(pk=self.run_id).exclude(status=Run.Status.STOPPED).update(
                    wrote_at=Coalesce("wrote_at", Value(timezone.now())))
                if not marked:
                    raise RunStopped(f"before {tool}")
            result = fn(user=self.user, **arguments)
        if not self.guarded and self.wrote_at is None:
            self.wrote_at = timezone.now()
        return result

    def _binding_info(self, bound: Mapping[str, str] | None, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """For each argument filled from a binding: the binding and the digest of the value it gave.

        An argument carrying exactly the value a lookup bound under its name counts as filled from it.
        """
        info = {arg: {"binding": desc, "sha256": values_digest(arguments[arg])} for arg, desc in (bound or {}).items()}
        for arg, (desc, digest) in self._lookups.items():
            if arg in arguments and arg not in info and arguments[arg] is not None \
                    and values_digest(arguments[arg]) == digest:
                info[arg] = {"binding": desc, "sha256": digest}
        return info

    def bind_lookup(self, step: str, arg: str, path: str) -> Any:
        """Bind the id a server lookup (step) yielded at path, and remember it for the calls that pass it as arg."""
        binding = Binding(from_step=step, path=path)
        value = self.bind(step, {arg: binding})[arg]
        self._lookups[arg] = (binding.describe(), values_digest(value))
        return value

    def data(self, step: str) -> dict[str, Any]:
        """Return an inline step result's data (a small read such as a task's facts)."""
        classified = self.classified[step]
        assert classified.artifact is None and isinstance(classified.data, dict), f"{step} is stored apart"
        return classified.data

    def text(self, step: str, *, limit: int) -> str:
        """Return the start (``limit`` characters) of a step's text result, stored apart or not: for code that
        reads it (a rule-based planner), never for a prompt."""
        classified = self.classified[step]
        if classified.artifact is None:
            return str(classified.data or "")[:limit]
        with artifact_open(self._live(classified.ref)) as handle:
            return handle.read(4 * limit).decode("utf-8", errors="ignore")[:limit]

    def count(self, step: str) -> int:
        """Return how many items a step's result holds, without reading an artifact's rows."""
        classified = self.classified[step]
        if classified.artifact is not None:
            return classified.artifact.item_count
        return len(classified.data.get("items", [])) if isinstance(classified.data, dict) else 0

    def rows(self, step: str) -> list[dict[str, Any]]:
        """Return every row of a step's result, an artifact's read back: for a card the user decides on."""
        classified = self.classified[step]
        if classified.artifact is not None:
            return list(self._items(classified.ref))
        return list(classified.data.get("items", [])) if isinstance(classified.data, dict) else []

    def meta(self, step: str) -> Mapping[str, Any]:
        """Return a step result's keys besides its rows (counts, flags), without reading the rows."""
        classified = self.classified[step]
        if classified.artifact is not None:
            return self._meta(classified.ref)
        data = classified.data if isinstance(classified.data, dict) else {}
        return {k: v for k, v in data.items() if k != "items"}

    def bind(self, step: str, bindings: Mapping[str, Binding], *,
             model_arguments: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Resolve a step's bound arguments. A model-typed value never replaces a binding.

        When the model also typed a value for a bound argument and it differs, the binding wins
        and an alert records what the model said.
        """
        values: dict[str, Any] = {}
        for arg, binding in bindings.items():
            value = binding_resolve(binding, results=self.results, items=self._items, meta=self._meta)
            values[arg] = value
            count = len(value) if isinstance(value, list) else 1
            source = self.results.get(binding.from_step or "")
            artifact = binding.artifact or (source.artifact if source else None)
            self.recorder.event(TraceEvent.Kind.BINDING, arg, step=step, binding=binding.describe(),
                                artifact=artifact, count=count, sha256=values_digest(value))
            typed = (model_arguments or {}).get(arg)
            if typed is not None and typed != value:
                self.recorder.alert(Alert.Kind.BINDING_OVERRIDE,
                                    f"The model typed its own {arg} for step {step}; the bound value was used.",
                                    key=f"{step}:{arg}", step=step, argument=arg,
                                    typed_sha256=values_digest(typed))
        return values

    def _live(self, ref: str) -> Artifact:
        """The user's artifact, unless it has expired: then neither its rows nor its meta may be bound."""
        artifact = self._stored.get(ref) or artifact_get_for_user(user=self.user, ref=ref)
        if artifact_is_expired(artifact):
            raise BindingUnresolved(f"binding: artifact {ref} has expired; run the query again.", field="binding")
        return artifact

    def _items(self, ref: str) -> Iterator[dict[str, Any]]:
        artifact = self._live(ref)
        with artifact_open(artifact) as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)

    def _meta(self, ref: str) -> Mapping[str, Any]:
        return self._live(ref).meta or {}
