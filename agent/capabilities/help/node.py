"""help: answer a greeting or "what can you do?" with what works on this page (clarify's words and buttons)."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.clarify.node import (
    ClarifyInput,
    example_project,
    suggestions_for,
    what_works_here,
    written_in_chinese,
)
from agent.capabilities.common.outcome import done
from agent.runtime import RunContext


def page_help(state: ClarifyInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Answer a greeting or "what can you do?" with what works on this page."""
    ctx = state["router_ctx"]
    chinese = written_in_chinese(state.get("message") or "")
    opening = "你好！我可以帮你查找、修改和拆解任务，并生成周报和风险分析。" if chinese else \
        "Hi! I can find, change and break down tasks, write the weekly report and check delay risk."
    body = what_works_here(ctx, chinese=chinese, project=example_project(state, runtime))
    return done(f"{opening}\n{body}", suggestions=suggestions_for(ctx), help=True)
