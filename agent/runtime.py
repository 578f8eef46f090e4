"""What a run hands its nodes besides the state: who acts, where to trace, which model to call."""
from __future__ import annotations

from dataclasses import dataclass

from agent.assembler.assemble import AssembledContext
from agent.llm.client import LLMClient
from agent.steps.runner import StepRunner
from agent.trace import TraceRecorder


@dataclass(frozen=True)
class RunContext:
    recorder: TraceRecorder
    llm: LLMClient
    steps: StepRunner
    # Present on the first request only; the assemble node moves it into the frozen views.
    assembled: AssembledContext | None = None
    # True when this request carries the user's decision on a paused run.
    resuming: bool = False
