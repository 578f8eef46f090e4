"""Ask for a plan: the generation model with structured output (or the offline rules), then validation.

The model sees the page summary, the task's facts and, when replanning, what happened, all as
words. A long description or many subtasks stand as their summaries (material.py) and the model
may look into them before it answers, within decompose's inspection budget (common/looking.py);
a look past it is dropped, the plan is asked for from what was shown, and the card says so. A
refused plan is recorded as alerts and the model is asked once more with the reasons, as long as
the run's budget of asks (1 + REPLAN_MAX) lasts.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone
from langgraph.runtime import Runtime

from agent.capabilities.common.looking import inspect_loop
from agent.capabilities.common.outcome import assemble_checked
from agent.capabilities.decompose.plan_tools import plan_schema
from agent.context.three_views import ModelSummary
from agent.llm.base import LLMError
from agent.llm.client import reply_json
from agent.prompting.messages import PromptPart, PromptRefused
from agent.runtime import RunContext
from agent.words.language import Language, language_of

from .material import Material, offline_brief
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
    # What the card must say about how the plan was made (from a summary, when a look was dropped).
    note: str = ""


def ask_budget() -> int:
    return 1 + settings.REPLAN_MAX


def _parts(*, instructions: str, summary: ModelSummary, brief: Mapping[str, Any], material: Material,
           message: str, report: str, refusal: str, stored: Sequence[PromptPart] = (),
           notes: Sequence[PromptPart] = ()) -> list[PromptPart]:
    """The call's parts; ``stored`` is the current form of each stored part of the material (summary or excerpt)."""
    words = brief_words(brief, today=timezone.localdate(), description=material.description_text(),
                        stored_apart=material.stored_apart())
    parts = [
        PromptPart(ref="prompt:decompose", form="instruction", role="system", text=instructions),
        PromptPart(ref="model_summary", form="summary", role="system", text=summary.text, heading="The page:"),
        PromptPart(ref="tool:parent_brief", form="summary", role="user", text=words,
                   heading="The task to break down:"),
        *stored, *notes,
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
    proposed = offline_plan(offline_brief(runtime, brief), max_steps=settings.PLAN_MAX_STEPS)
    if not proposed["steps"]:
        return Proposal(plan=None, asked=0, error="every step the offline rules find is already one of its subtasks")
    checked = plan_validate(proposed,
                            max_steps=settings.PLAN_MAX_STEPS, members=[m["username"] for m in brief["members"]])
    if isinstance(checked, list):
        _record(runtime, checked, 0)
        return Proposal(plan=None, asked=0, problems=checked)
    return Proposal(plan=checked, asked=0)


def _ask_once(runtime: Runtime[RunContext], *, purpose: str, material: Material, language: Language,
              parts_with: Callable[[Sequence[PromptPart], Sequence[PromptPart]], list[PromptPart]]) -> tuple[Any, str]:
    """One ask: the raw plan and the note on how it was made. Stored material may be looked into first; when a
    look is dropped, the plan is asked for from what was shown (the summaries, or the excerpts read)."""
    llm = runtime.context.llm
    sources = material.sources()
    if not sources:
        return llm.complete_json(purpose=purpose, role="generation", json_schema=plan_schema(),
                                 prompt=assemble_checked(runtime, parts_with([], []))), ""
    inspected = inspect_loop(runtime, capability="decompose", sources=sources, purpose=purpose,
                             json_schema=plan_schema(), parts_with=parts_with,
                             assemble=lambda parts: assemble_checked(runtime, parts))
    if inspected.reply is not None:
        return reply_json(inspected.reply.text), inspected.note(language)
    return llm.complete_json(purpose=f"{purpose}_from_summary", role="generation", json_schema=plan_schema(),
                             prompt=assemble_checked(runtime, inspected.shown)), inspected.note(language)


def plan_ask(runtime: Runtime[RunContext], *, summary: ModelSummary, brief: Mapping[str, Any], material: Material,
             message: str, asked: int, report: str = "", taken: Collection[str] = (),
             done: Collection[str] = ()) -> Proposal:
    """Ask the model for a plan (or, with a report, a revised remainder) until one is valid or the budget is spent."""
    max_steps = settings.PLAN_MAX_STEPS
    instructions = replanner_instructions(max_steps) if report else planner_instructions(max_steps)
    members = [m["username"] for m in brief["members"]]
    refusal, error, note = "", "", ""
    problems: list[Problem] = []
    while asked < ask_budget():
        asked += 1

        def parts_with(stored: Sequence[PromptPart], notes: Sequence[PromptPart],
                       why: str = refusal) -> list[PromptPart]:
            return _parts(instructions=instructions, summary=summary, brief=brief, material=material, message=message,
                          report=report, refusal=why, stored=stored, notes=notes)

        try:
            raw, note = _ask_once(runtime, purpose="decompose_replan" if report else "decompose_plan",
                                  material=material, language=language_of(message), parts_with=parts_with)
        except PromptRefused as exc:
            return Proposal(plan=None, asked=asked, error=str(exc))
        except LLMError as exc:
            error = str(exc)
            continue
        if report and isinstance(raw, dict) and raw.get("steps") == []:
            return Proposal(plan=Plan(steps=()), asked=asked, note=note)
        checked = plan_validate(raw, max_steps=max_steps, taken=taken, done=done, members=members)
        if isinstance(checked, Plan):
            return Proposal(plan=checked, asked=asked, note=note)
        problems = checked
        _record(runtime, problems, asked)
        refusal = "\n".join(f"- {p.message}" for p in problems)
    return Proposal(plan=None, asked=asked, problems=problems, error=error, note=note)
