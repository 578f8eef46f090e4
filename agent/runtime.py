"""What a run hands its nodes besides the state: who acts, where to trace, which model to call."""
from __future__ import annotations

from dataclasses import dataclass

from agent.assembler.assemble import AssembledContext
from agent.llm.client import LLMClient
from agent.trace import TraceRecorder


@dataclass(frozen=True)
class RunContext:
    recorder: TraceRecorder
    llm: LLMClient
    # Present on the first request only; the assemble node moves it into the frozen views.
    assembled: AssembledContext | None = None
