"""Ask for a plan: the generation model with structured output (or the offline rules), then validation.

The model sees the page summary, the task's facts and, when replanning, what happened, all as
words. A refused plan is recorded as alerts and the model is asked once more with the reasons,
as long as the run's budget of asks (1 + REPLAN_MAX) lasts.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone
from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import assemble_checked
from agent.capabilities.decompose.plan_tools import plan_schema
from agent.context.three_views import ModelSummary
from agent.llm.base import LLMError
from agent.prompting.messages import PromptPart, PromptRefused
from agent.runtime import RunContext

from .offline import offline_plan
from .plan import Plan
from .prompts import planner_instructions, replanner_instructions
from .validate import Problem, plan_validate
from .words import brief_words

OFFLINE, MODEL = "offline", "model"


@dataclass(frozen=True)
class Proposal:
    """What asking produced: a valid plan (empty when a replanner wants nothing more), or why not."""

    plan: Plan | None
    asked: int
    problems: list[Problem] = field(default_factory=list)
    error: str = ""


def ask_budget() -> int:
    return 1 + settings.REPLAN_MAX


def _parts(*, instructions: str, summary: ModelSummary, brief: Mapping[str, Any], message: str,
           report: str, refusal: str) -> list[PromptPart]:
    parts = [
        PromptPart(ref="prompt:decompose", form="instruction", role="system", text=instructions),
        PromptPart(ref="model_summary", form="summary", role="system", text=summary.text, heading="The page:"),
        PromptPart(ref="tool:parent_brief", form="summary", role="user",
                   text=brief_words(brief, today=timezone.localdate()), heading="The task to break down:"),
    ]
    if message:
        parts.append(PromptPart(ref="user_message", form="full", role="user", text=message, heading="The user asked:"))
    if report:
        parts.append(PromptPart(ref="plan_report", form="summary", role="user", text=report,
                                heading="What happened so far:"))
    if refusal:
        parts.append(PromptPart(ref="plan_refusal", form="summary", role="user", text=refusal,
                                heading="Your previous plan was refused, because:"))
    return parts


def _record(runtime: Runtime[RunContext], problems: list[Problem], asked: int) -> None:
    for p in problems:
        runtime.context.recorder.alert(p.kind, f"Plan refused: {p.message}", key=f"ask{asked}:{p.step}:{p.kind}",
                                       step=p.step, ask=asked)


def plan_offline(runtime: Runtime[RunContext], brief: Mapping[str, Any]) -> Proposal:
    """The deterministic plan; validated like any other so the same rules hold."""
    proposed = offline_plan(brief, max_steps=settings.PLAN_MAX_STEPS)
    if not proposed["steps"]:
        return Proposal(plan=None, asked=0, error="every step the offline rules find is already one of its subtasks")
    checked = plan_validate(proposed,
                            max_steps=settings.PLAN_MAX_STEPS, members=[m["username"] for m in brief["members"]])
    if isinstance(checked, list):
        _record(runtime, checked, 0)
        return Proposal(plan=None, asked=0, problems=checked)
    return Proposal(plan=checked, asked=0)


def plan_ask(runtime: Runtime[RunContext], *, summary: ModelSummary, brief: Mapping[str, Any], message: str,
             asked: int, report: str = "", taken: Collection[str] = (), done: Collection[str] = ()) -> Proposal:
    """Ask the model for a plan (or, with a report, a revised remainder) until one is valid or the budget is spent."""
    llm = runtime.context.llm
    max_steps = settings.PLAN_MAX_STEPS
    instructions = replanner_instructions(max_steps) if report else planner_instructions(max_steps)
    members = [m["username"] for m in brief["members"]]
    refusal, error = "", ""
    problems: list[Problem] = []
    while asked < ask_budget():
        asked += 1
        try:
            prompt = assemble_checked(runtime, _parts(instructions=instructions, summary=summary, brief=brief,
                                                      message=message, report=report, refusal=refusal))
        except PromptRefused as exc:
            return Proposal(plan=None, asked=asked, error=str(exc))
        try:
            raw = llm.complete_json(purpose="decompose_replan" if report else "decompose_plan", role="generation",
                                    prompt=prompt, json_schema=plan_schema())
        except LLMError as exc:
            error = str(exc)
            continue
        if report and isinstance(raw, dict) and raw.get("steps") == []:
            return Proposal(plan=Plan(steps=()), asked=asked)
        checked = plan_validate(raw, max_steps=max_steps, taken=taken, done=done, members=members)
        if isinstance(checked, Plan):
            return Proposal(plan=checked, asked=asked)
        problems = checked
        _record(runtime, problems, asked)
        refusal = "\n".join(f"- {p.message}" for p in problems)
    return Proposal(plan=None, asked=asked, problems=problems, error=error)
