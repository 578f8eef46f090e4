"""The executor: fixed code, no model. Runs approved steps in order, filling bound ids from earlier results.

Each step's input (as the planner wrote it), its resolved bindings and its output go on the
trace with the step's idempotency key; a step whose key already ran in this run is not run
again, its recorded output is reused. A failed step stops only itself and the steps bound to it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils import timezone
from langgraph.runtime import Runtime

from agent.capabilities.decompose.plan_tools import PLAN_TOOLS
from agent.context.three_views import ExecCtx
from agent.context.words import quote_user_text
from agent.models import Alert, TraceEvent
from agent.runtime import RunContext
from agent.tools import task_tools
from agent.tools.binding import BindingUnresolved, StepResult
from agent.tools.facts import fact, values_digest
from agent.words.language import Language
from pm_assistant.errors import ApplicationError

from .answers import TEXTS
from .plan import SELECTED, Plan, PlanStep
from .words import step_words

STEP_EVENT = "decompose.step"
CHECKLIST = ("expected_title", "expected_status")


class StepStopped(Exception):
    """A step cannot run; the reason is said in words (English for the trace, ``said`` in the language of
    the request for the answer) and named by a code."""

    def __init__(self, code: str, reason: str, said: str = "") -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.said = said or reason


Words = Mapping[str, str]


def _in_words(words: Words, say: Callable[[Words], str]) -> tuple[str, str]:
    """A reason said from the answer words: in English for the trace and the alerts, and in the request's."""
    return say(TEXTS["en"]), say(words)


def _builds_on(missing: list[str]) -> Callable[[Words], str]:
    """Why a step was skipped: the earlier steps it builds on did not run."""
    return lambda w: w["reason_skipped"].format(steps=w["steps_join"].join(missing))


def step_key(run_id: Any, step: PlanStep) -> str:
    """The step's idempotency key: the run, the step id, its tool and its arguments."""
    return values_digest({"run": str(run_id), "step": step.id, "tool": step.tool, "args": dict(step.args)})


def _ran_before(run_id: Any, key: str) -> dict[str, Any] | None:
    """Return the output a step with this key recorded in this run, if it ran to the end."""
    event = TraceEvent.objects.filter(run_id=run_id, kind=TraceEvent.Kind.NODE, name=STEP_EVENT,
                                      payload__idempotency_key=key, payload__status="done").first()
    return event.payload["output"] if event else None


def _checked_target(runtime: Runtime[RunContext], ctx: ExecCtx, step: PlanStep, task_id: int,
                    bound: Mapping[str, str], words: Words) -> dict[str, dict[str, Any]]:
    """Read the target from the database, compare the planner's checklist, return the policy facts."""
    rec, runner = runtime.context.recorder, runtime.context.tools
    # Read afresh for every step: an earlier step may have changed the same task.
    runner.read(f"{step.id}:target", "task_facts", task_tools.task_facts, scope=lambda f: [f["project_id"]],
                bound=bound, reuse=False, task_id=task_id)
    facts = runner.data(f"{step.id}:target")
    if not facts["can_write"]:
        title = quote_user_text(facts["title"])
        raise StepStopped("forbidden", *_in_words(words, lambda w: w["reason_forbidden"].format(title=title)))
    mismatches = task_tools.compare_expected(facts=facts, expected_title=step.args.get("expected_title"),
                                             expected_status=step.args.get("expected_status"))
    for m in mismatches:
        rec.alert(Alert.Kind.FACT_MISMATCH, f"Step {step.id}: the plan said {m.field} is {m.stated!r}; the database "
                  f"says {m.actual!r}. The step stopped.", key=f"{step.id}:{m.field}", step=step.id,
                  field=m.field, stated=m.stated, actual=m.actual)
    if mismatches:
        raise StepStopped("fact_mismatch", *_in_words(words, lambda w: w["reason_join"].join(
            w["reason_mismatch"].format(field=w[f"field_{m.field}"], stated=quote_user_text(m.stated),
                                        actual=quote_user_text(m.actual)) for m in mismatches)))
    return {"title": fact(facts["title"], "database"), "status": fact(facts["status"], "database"),
            "updated_at": fact(facts["updated_at"], "database"),
            "now": fact(timezone.now().isoformat(), "server_clock")}


def _run_step(runtime: Runtime[RunContext], ctx: ExecCtx, step: PlanStep,
              words: Words) -> tuple[dict[str, Any], dict[str, Any]]:
    """Bind, check and call one step's tool; return its resolved bindings and its output."""
    steps, tool = runtime.context.tools, PLAN_TOOLS[step.tool]
    bindings = step.bindings()
    try:
        values = steps.bind(step.id, bindings)
    except BindingUnresolved as exc:
        raise StepStopped("binding_unresolved", exc.message, words["reason_unbound"]) from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
        raise StepStopped("binding_unresolved", "a binding did not lead to a task id", words["reason_unbound"])
    resolved = {arg: {"binding": b.describe(), "from_step": b.from_step, "value": values[arg]}
                for arg, b in bindings.items()}
    target_arg = tool.bound_args[0]
    described = {target_arg: bindings[target_arg].describe()}
    policy = _checked_target(runtime, ctx, step, values[target_arg], {"task_id": described[target_arg]}, words)
    args = tool.args.model_validate(step.args)
    plain = {name: getattr(args, name) for name in tool.args.model_fields
             if name not in bindings and name not in CHECKLIST}
    output = steps.write(tool.name, tool.fn, facts=policy, bound={arg: b.describe() for arg, b in bindings.items()},
                         **plain, **values)
    return resolved, output


def plan_execute(runtime: Runtime[RunContext], ctx: ExecCtx, plan: Plan, *, parent: Mapping[str, Any],
                 results: Mapping[str, Any], names: Mapping[str, str],
                 language: Language = "en") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run the approved steps in order; return every step's output so far and this pass's log."""
    rec, runner = runtime.context.recorder, runtime.context.tools
    outputs = dict(results)
    runner.results.update({SELECTED: StepResult(step=SELECTED, data=dict(parent)),
                           **{sid: StepResult(step=sid, data=data) for sid, data in outputs.items()}})
    log, words = [], TEXTS[language]
    for step in plan:
        key = step_key(rec.run_id, step)
        entry: dict[str, Any] = {"step": step.id, "tool": step.tool, "words": step_words(step, names, language)}
        earlier = _ran_before(rec.run_id, key)
        missing = sorted(step.sources() - outputs.keys())
        resolved: dict[str, Any] = {}
        if earlier is not None:
            entry.update(status="done", result=earlier, reused=True)
        elif missing:
            reason, said = _in_words(words, _builds_on(missing))
            entry.update(status="skipped", code="binding_unresolved", reason=reason, said=said)
        else:
            try:
                resolved, output = _run_step(runtime, ctx, step, words)
                entry.update(status="done", result=output)
            except StepStopped as exc:
                entry.update(status="failed", code=exc.code, reason=exc.reason, said=exc.said)
            except ApplicationError as exc:
                entry.update(status="failed", code=exc.code, reason=exc.message,
                             said=words["reason_refused"].format(message=exc.message))
        if entry["status"] == "done":
            outputs[step.id] = entry["result"]
            runner.results[step.id] = StepResult(step=step.id, data=entry["result"])
        elif entry["code"] != "fact_mismatch":  # a mismatch has its own alert already
            rec.alert(Alert.Kind.STEP_FAILED, f"Step {step.id} did not run: {entry['reason']}.",
                      key=f"{step.id}:{key[:12]}", step=step.id, code=entry["code"])
        rec.node(STEP_EVENT, step=step.id, tool=step.tool, input=dict(step.args), bindings=resolved,
                 output=entry.get("result"), status=entry["status"], reason=entry.get("reason", ""),
                 idempotency_key=key, durable=True)  # written now: a rerun must find the step done
        log.append(entry)
    return outputs, log
