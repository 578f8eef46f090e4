"""What a run hands its nodes besides the state: where to trace, which model to call, the step runner.

No part of the page context is here: the views live in the graph state only.
"""
from __future__ import annotations

from dataclasses import dataclass

from agent.llm.client import LLMClient
from agent.steps.runner import StepRunner
from agent.trace import TraceRecorder


@dataclass(frozen=True)
class RunContext:
    recorder: TraceRecorder
    llm: LLMClient
    steps: StepRunner
    # True when this request carries the user's decision on a paused run.
    resuming: bool = False
