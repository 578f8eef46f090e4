"""The run service: the one entry for the API and the sidebar (request, confirm, stop, read)."""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

from celery import signature
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from agent.graph.checkpointer import checkpointer
from agent.graph.graph import graph_for
from agent.graph.pause_saver import PauseOnlySaver
from agent.llm.client import LLMClient
from agent.llm.providers import llm_provider_from_settings
from agent.models import Alert, Confirmation, Conversation, Run, TraceEvent
from agent.page_context.names import entity_names_for
from agent.page_context.parse import page_context_read
from agent.routing.decision import Route
from agent.routing.fast_path import fast_path_route, route_may_pause
from agent.run.audit import run_audit_at_end
from agent.run.conversations import conversation_note_request
from agent.run.live import RunLive, RunStopped, stop_request
from agent.run.trace import TraceRecorder
from agent.runtime import RunContext
from agent.state import FrozenViewWrite, view_alert_sink
from agent.tools.runner import ToolRunner
from agent.words.titles import request_title
from pm_assistant.errors import ApplicationError, Conflict, InvalidInput, NotFound
from pm_assistant.vocabulary import MESSAGE_MAX_CHARS

STOPPED_REPLY = "Stopped, as you asked. Nothing more was done after the stop; anything finished before it is kept."

logger = logging.getLogger(__name__)


@contextmanager
def _saver_for(may_interrupt: bool, *, resuming: bool) -> Iterator[PauseOnlySaver | None]:
    """The run's checkpointer; a run that cannot pause is never resumed, so it needs none."""
    if not may_interrupt:
        yield None
        return
    with checkpointer() as store:
        yield PauseOnlySaver(store, resuming=resuming)


def _execute(run: Run, graph_input: Any, context: RunContext, *, may_interrupt: bool = True) -> Run:
    """Invoke the graph for the run's thread and store what it ended with."""
    recorder = context.recorder

    def on_view_write(name: str) -> None:
        recorder.alert(Alert.Kind.VIEW_OVERWRITE, f"A node tried to overwrite the frozen view {name}; "
                       "the first value was kept.", key=f"{name}:{uuid4().hex}", view=name)

    token = view_alert_sink.set(on_view_write)
    finished = crashed = False
    try:
        # A run that cannot pause commits once: what its tools wrote, its trace and its outcome together.
        with _saver_for(may_interrupt, resuming=context.resuming) as saver, \
                nullcontext() if may_interrupt else transaction.atomic():
            graph = graph_for(saver)
            config: RunnableConfig = {"configurable": {"thread_id": str(run.pk)}}
            # Checkpoints are written when the run pauses or ends, not after every step: a run is only
            # ever resumed from its pause (an approval card), so the steps between are not worth a write each.
            result = graph.invoke(graph_input, config=config, context=context,
                                  durability="exit" if saver is not None else None)
            if saver is not None and isinstance(result, dict) and result.get("__interrupt__"):
                saver.keep()  # it paused: resumed from here; a run that ended needs no checkpoint
            stored, background = _store_outcome(run, result, context)
        finished = True
    except RunStopped as stop:
        # Between two nodes: what ran before the stop is kept, nothing after it runs.
        finished = True
        recorder.node("stopped", before=str(stop))
        return _store_stopped(run, context)
    except (ApplicationError, FrozenViewWrite):
        raise  # a request the app refuses (a 4xx, the caller words it), or a node breaking the views' contract
    except Exception:
        # A bug, or a model answer no check foresaw: the run is kept as failed with the trace it had
        # (below), the traceback goes to the log, and the caller gets the failed run, not a server error.
        logger.exception("run %s failed", run.pk)
        crashed = True
    finally:
        view_alert_sink.reset(token)
        if context.live is not None:
            context.live.finish()
        if not finished:
            # The run keeps the trace it had and is not left looking as if it were still going.
            with transaction.atomic():
                recorder.flush()
                usage = context.llm.usage_write(run)
                # A run its owner stopped meanwhile stays stopped (and still counts its model calls).
                failed = Run.objects.filter(pk=run.pk).exclude(status=Run.Status.STOPPED).update(
                    status=Run.Status.ERROR, error_code="internal", audit=run_audit_at_end(run, recorder),
                    reply="Something went wrong; nothing more was done.", updated_at=timezone.now(), **usage)
                if not failed and usage:
                    Run.objects.filter(pk=run.pk).update(**usage)
    if crashed or not stored:
        run.refresh_from_db()
        return run
    if background:
        # By name, so the service does not import the job that imports it; eager Celery runs it right here.
        signature("agent.jobs.run_continue", args=[str(run.pk)]).apply_async()
        run.refresh_from_db()
    return run


def _store_outcome(run: Run, result: Any, context: RunContext) -> tuple[bool, bool]:
    """Store what the graph ended with on the run; return whether it was stored (not stopped meanwhile)
    and whether it goes on in the background."""
    # Only what the graph may have changed behind this object: the progress (a background stage). The
    # model calls' usage is added to the run's counters here, in the statement that stores the outcome.
    if context.recorder.progressed:
        run.refresh_from_db(fields=["progress"])
    # The graph worded everything: an approval request (capabilities.outcome.ask_approval) or the
    # final outcome (the respond node). The service only stores it.
    interrupts = result.get("__interrupt__") if isinstance(result, dict) else None
    request: dict[str, Any] = interrupts[0].value if interrupts else {}
    background = request.get("action") == "background"
    fields = ["status", "reply", "capability", "via", "updated_at"]
    if background:
        facts = request["facts"]
        run.status, run.progress = Run.Status.RUNNING, {"stage": "queued", "done": 0, "total": facts["stages"]}
        run.reply = f"Working on it: {facts['tasks']} tasks to read. This answer updates when the report is ready."
        fields.append("progress")
    elif interrupts:
        run.status, run.reply = Run.Status.NEEDS_CONFIRMATION, request["reply"]
    else:
        outcome = result["outcome"]
        run.status, run.reply, run.data = outcome["status"], outcome["reply"], outcome["data"]
        run.error_code = outcome["error_code"]
        fields += ["data", "error_code"]
        # The capability says whether its writes changed anything (agent/capabilities/crud.py).
        if run.status == Run.Status.DONE and outcome["data"].get("undoable"):
            run.undo_until = timezone.now() + timedelta(seconds=settings.UNDO_WINDOW_SECONDS)
            fields.append("undo_until")
    decided = result.get("route")
    if decided is not None:
        run.capability, run.via = decided.capability, decided.via
    if context.tools.wrote_at is not None:  # an unguarded write (a run that commits once): when it wrote
        run.wrote_at = context.tools.wrote_at
        fields.append("wrote_at")
    # The run's own writes (its trace, the card, its outcome) commit together; a run its owner stopped
    # meanwhile stays stopped, without a card.
    with transaction.atomic(savepoint=False):
        context.recorder.flush()
        # The four-point audit of the trace so far, stored on the run (agent/run/audit.py).
        run.audit = run_audit_at_end(run, context.recorder)
        fields.append("audit")
        run.updated_at = timezone.now()
        usage = context.llm.usage_write(run)
        stored = Run.objects.filter(pk=run.pk).exclude(status=Run.Status.STOPPED).update(
            **{name: getattr(run, name) for name in fields}, **usage)
        if not stored and usage:
            Run.objects.filter(pk=run.pk).update(**usage)
        if stored and interrupts and not background:
            Confirmation.objects.create(run=run, action=request["action"], facts=request["facts"])
    return bool(stored), background


def _store_stopped(run: Run, context: RunContext) -> Run:
    """Keep the stopped run's trace and usage and end it as stopped (run_stop has usually said so already)."""
    recorder = context.recorder
    with transaction.atomic():
        recorder.flush()
        Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING).update(
            status=Run.Status.STOPPED, error_code="stopped", reply=STOPPED_REPLY, updated_at=timezone.now())
        Run.objects.filter(pk=run.pk).update(audit=run_audit_at_end(run, recorder), **context.llm.usage_write(run))
    run.refresh_from_db()
    return run


# A run in one of these has ended and shown its answer: a stop that reaches it is too late.
FINISHED = frozenset({Run.Status.DONE, Run.Status.NEEDS_CLARIFICATION, Run.Status.ERROR})


def run_stop(*, user: User, run_id: UUID | str) -> Run:
    """Stop the owner's running run: it ends as stopped at its next point between nodes, writing nothing after."""
    run = run_get(user=user, run_id=run_id)
    if run.status in FINISHED:
        # It ended (and said what it did) before the stop reached the server.
        raise Conflict("This run finished before it could be stopped.", field="run_id")
    if run.status != Run.Status.RUNNING:
        raise Conflict("This run is not running: there is nothing to stop.", field="run_id")
    # The record first, in one conditional update: it waits for a write the run is making (the tool
    # runner holds the run's row while it writes) and does nothing once the run has written or stored
    # its end, so "stopped" is never said of a run whose change was made. Then the flag, so no node
    # starts after this point and a streaming answer is cut off.
    stopped = Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING, wrote_at__isnull=True).update(
        status=Run.Status.STOPPED, error_code="stopped", reply=STOPPED_REPLY, updated_at=timezone.now())
    if not stopped:
        run.refresh_from_db()
        if run.status == Run.Status.RUNNING:
            raise Conflict("This run had already made its change when the stop came: it finishes and shows "
                           "what it did.", field="run_id", code="already_wrote")
        raise Conflict("This run finished before it could be stopped.", field="run_id")
    stop_request(run.pk)
    run.refresh_from_db()
    return run


def run_continue(*, run_id: UUID | str) -> Run:
    """Resume a run that was handed to the background; a run no longer running is left as it is."""
    run = Run.objects.select_related("user").get(pk=run_id)
    if run.status != Run.Status.RUNNING:
        return run
    resume: Command[Any] = Command(resume={"decision": "background"})
    return _execute(run, resume, _run_context(run.user, run, resuming=True))


def runs_fail_stale(*, older_than: timedelta) -> int:
    """End runs whose background job has not reported for too long: an error, never running forever."""
    stale = Run.objects.filter(status=Run.Status.RUNNING, updated_at__lt=timezone.now() - older_than)
    return stale.update(status=Run.Status.ERROR, error_code="job_lost", updated_at=timezone.now(),
                        reply="The background job stopped before it finished; nothing was reported. Please try again.")


def _run_context(user: User, run: Run, *, resuming: bool, stream_token: str | None = None,
                 last_seq: int | None = None, stoppable: bool = True) -> RunContext:
    recorder = TraceRecorder.for_run(run, resuming=resuming, last_seq=last_seq)
    # A browser following the run (stream_token) sees its stages and the model's prose as it streams.
    live = RunLive(run_id=run.pk, user_id=user.pk, token=stream_token, stoppable=stoppable)
    live.open()
    llm = LLMClient(provider=llm_provider_from_settings(), recorder=recorder, listener=live if stream_token else None)
    tools = ToolRunner(user=user, run_id=run.pk, recorder=recorder, guarded=stoppable)
    return RunContext(recorder=recorder, llm=llm, tools=tools, resuming=resuming, live=live)


def run_request(*, user: User, page_context: Any, message: str | None = None, action: str | None = None,
                conversation: Conversation | None = None, stream_token: str | None = None,
                proposed: Route | None = None) -> Run:
    """Validate a sidebar or quick-button request and run it through the graph, as part of the conversation.

    With a stream_token (the sidebar's), the run's stages and streamed prose are published under it.
    ``proposed`` is a write the server built from ids it checked (an answer's move), with the message
    that words it: the run takes that route as given (no model) and stops on its card.
    """
    if bool(message) == bool(action):
        raise InvalidInput("message: send either a message or an action, not both or neither.", field="message")
    if message is not None and len(message) > MESSAGE_MAX_CHARS:
        raise InvalidInput(f"message: at most {MESSAGE_MAX_CHARS} characters.", field="message")
    read = page_context_read(data=page_context, user=user)
    context = read.context
    # A quick action is routed by the table here, once: an unknown one is refused before anything is
    # written, and whether its run can pause decides the checkpointer. The graph assembles the views,
    # and its route node takes this route (or asks the router model about a message).
    quick = fast_path_route(origin=context.origin, action=action) if action else None
    may_interrupt = route_may_pause(quick) if quick else True
    names = entity_names_for(context=context, user=user, task_names=read.task_names, project_names=read.project_names)
    if proposed is not None:
        quick = proposed.model_copy(update={"proposed": True})
    graph_input = {"message": message or "", "action": action or "", "page_context": context, "names": names,
                   "route": quick}
    failure: Exception | None = None
    # A run that cannot pause commits once: the run, what its tools wrote, its trace and its outcome.
    with nullcontext() if may_interrupt else transaction.atomic():
        with transaction.atomic(savepoint=False):
            if conversation is not None:
                if not conversation.title:
                    conversation.title = request_title(message=message or "", action=action or "",
                                                       names=names)
                conversation_note_request(conversation=conversation, message=message or "", action=action or "")
            run = Run.objects.create(user=user, message=message or "", action=action or "",
                                     conversation=conversation,
                                     page_context=context.model_dump(mode="json", by_alias=True))
        try:
            # A run that commits once is seen by no one before it ends: nothing can stop it meanwhile.
            run_context = _run_context(user, run, resuming=False, stream_token=stream_token, stoppable=may_interrupt)
            run = _execute(run, graph_input, run_context, may_interrupt=may_interrupt)
        except Exception as exc:
            # A refusal (ApplicationError) from the graph: _execute undid its writes and marked the run
            # failed; that is kept, then raised for the caller to word. Anything else _execute answered.
            failure = exc
    if failure is not None:
        raise failure
    if read.dropped_task_ids:
        _note_stale_ids(run, read.dropped_task_ids)
    return run


def _note_stale_ids(run: Run, ids: tuple[int, ...]) -> None:
    """Tell the page which of its rows name deleted tasks, so it refreshes them."""
    notice = f"Left out {len(ids)} task{'s' if len(ids) != 1 else ''} this page still showed but that no longer " \
        "exist: the page was out of date."
    run.data = {**(run.data if isinstance(run.data, dict) else {}), "stale_task_ids": list(ids), "notice": notice}
    run.save(update_fields=["data", "updated_at"])


def run_get(*, user: User, run_id: UUID | str) -> Run:
    """Return the user's own run; anyone else's is not found."""
    try:
        return Run.objects.get(pk=run_id, user=user)
    except (Run.DoesNotExist, ValueError):
        raise NotFound("This run was not found.", field="run_id") from None


def _run_awaiting(*, user: User, run_id: UUID | str) -> tuple[Run, Confirmation]:
    """The user's run, its newest confirmation and where its trace stopped, in one read."""
    last_seq = TraceEvent.objects.filter(run_id=OuterRef("run_id")).order_by("-seq").values("seq")[:1]
    try:
        confirmation = (Confirmation.objects.select_related("run").filter(run_id=run_id, run__user=user)
                        .annotate(trace_last_seq=Subquery(last_seq)).order_by("-created_at").first())
    except ValueError:
        raise NotFound("This run was not found.", field="run_id") from None
    if confirmation is None:
        run_get(user=user, run_id=run_id)  # not the user's run: not found
        raise Conflict("This run is not waiting for a confirmation.", field="run_id")
    return confirmation.run, confirmation


def _checked_drops(confirmation: Confirmation, drop_steps: list[str]) -> list[str]:
    """The steps a user unchecked: only a plan has steps, and only its own may be named."""
    if not drop_steps:
        return []
    steps = {step["id"] for step in confirmation.facts.get("steps") or []}
    unknown = sorted(set(drop_steps) - steps) if confirmation.action == "decompose" else drop_steps
    if unknown:
        raise InvalidInput(f"drop_steps: {unknown[0]!r} is not a step of this plan.", field="drop_steps")
    return sorted(set(drop_steps))


def run_confirm(*, user: User, run_id: UUID | str, decision: str, drop_steps: list[str] | None = None,
                confirmation_id: str | None = None) -> Run:
    """Apply the owner's decision to the pending confirmation, once, and resume the run.

    With ``confirmation_id`` (the card the user saw), a decision meant for an earlier card of the run
    (a plan since revised, a request sent again) is refused rather than applied to the newer one.
    """
    if decision not in Confirmation.Decision.values:
        raise InvalidInput('decision: must be "approve" or "reject".', field="decision")
    run, confirmation = _run_awaiting(user=user, run_id=run_id)
    if confirmation_id is not None and str(confirmation_id) != str(confirmation.pk):
        if str(confirmation_id) not in {str(pk) for pk in run.confirmations.values_list("pk", flat=True)}:
            raise InvalidInput("confirmation_id: no card of this run has that id.", field="confirmation_id")
        raise Conflict("That card is no longer the one waiting: the run asked again since. Decide on its "
                       "newest card.", field="confirmation_id")
    dropped = _checked_drops(confirmation, drop_steps or [])
    # The conditional update is the single-use guard: of concurrent decisions exactly one wins (one
    # statement, atomic by itself).
    claimed = Confirmation.objects.filter(pk=confirmation.pk, decided_at__isnull=True).update(
        decision=decision, decided_at=timezone.now())
    if not claimed:
        raise Conflict("This confirmation was already decided.", field="decision")
    run.status = Run.Status.RUNNING
    run.save(update_fields=["status", "updated_at"])
    resume: Command[Any] = Command(resume={"decision": decision, "facts": confirmation.facts, "drop_steps": dropped})
    last_seq = confirmation.trace_last_seq or 0  # type: ignore[attr-defined]  # annotated by _run_awaiting
    context = _run_context(user, run, resuming=True, last_seq=last_seq)
    return _execute(run, resume, context)
