"""What a run hands its nodes besides the state: where to trace, which model to call, the tool runner.

No part of the page context is here: the views live in the graph state only.
"""
from __future__ import annotations

from dataclasses import dataclass

from agent.llm.client import LLMClient
from agent.run.live import RunLive
from agent.run.trace import TraceRecorder
from agent.tools.runner import ToolRunner


@dataclass(frozen=True)
class RunContext:
    recorder: TraceRecorder
    llm: LLMClient
    # The one door to the tools, holding the run's user (resolved once, from the session).
    tools: ToolRunner
    # True when this request carries the user's decision on a paused run.
    resuming: bool = False
    # The run as it happens: its stage for the sidebar, and the owner's stop, read between nodes.
    live: RunLive | None = None
