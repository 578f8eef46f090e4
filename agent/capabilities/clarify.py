"""clarify and help: say what works on this page, with its quick actions as buttons.

Both answer from the registry (the examples) and the quick-action table (the buttons), so help never
offers a capability that is not built or a button the page does not have.
"""
from __future__ import annotations

import re
from typing import Any, NotRequired, TypedDict

from langgraph.runtime import Runtime

from agent.assembler.views import RouterCtx
from agent.llm.offline import unasked_write
from agent.registry import HELP_EXAMPLES
from agent.routing.decision import Route
from agent.routing.quick_actions import quick_actions_for
from agent.runtime import RunContext

from .outcome import clarify as clarify_outcome
from .outcome import done
from .unasked import unasked_reply

# Han characters: a message written in Chinese is answered with Chinese words around the same lists.
_HAN = re.compile(r"[\u3400-\u9fff]")


class ClarifyInput(TypedDict):
    message: str
    router_ctx: RouterCtx
    route: NotRequired[Route | None]


def _suggestions(ctx: RouterCtx) -> list[dict[str, str]]:
    return [{"action": entry.action, "label": entry.label} for entry in quick_actions_for(ctx.page)]


def what_works_here(ctx: RouterCtx, *, chinese: bool) -> str:
    """The page's quick actions by label, then a typed example for each capability."""
    labels = ", ".join(f"“{entry.label}”" for entry in quick_actions_for(ctx.page))
    examples = "\n".join(f"- {spec.label}: “{spec.example}”" for spec in HELP_EXAMPLES)
    if chinese:
        buttons = f"本页的快捷操作：{labels}。\n" if labels else ""
        return f"{buttons}也可以直接输入（中文或英文），例如：\n{examples}"
    buttons = f"On this page: {labels} (the buttons below).\n" if labels else ""
    return f"{buttons}Or ask in your own words, for example:\n{examples}"


def page_help(state: ClarifyInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Answer a greeting or "what can you do?" with what works on this page."""
    ctx = state["router_ctx"]
    chinese = bool(_HAN.search(state.get("message") or ""))
    opening = "你好！我可以帮你查找、修改和拆解任务，并生成周报和风险分析。" if chinese else \
        "Hi! I can find, change and break down tasks, write the weekly report and check delay risk."
    return done(f"{opening}\n{what_works_here(ctx, chinese=chinese)}", suggestions=_suggestions(ctx), help=True)


def clarify(state: ClarifyInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Say what was unclear, then what works on this page; a write named but not asked for changes nothing."""
    ctx, route = state["router_ctx"], state.get("route")
    message = state.get("message") or ""
    chinese = bool(_HAN.search(message))
    unasked = unasked_write(message)
    declined = route is not None and route.intent is not None and route.intent.verdict == "declined"
    if unasked is not None or declined:
        mood, reading = unasked if unasked is not None else (route.intent.mood or "question", None)  # type: ignore[union-attr]
        runtime.context.recorder.node("clarify.unasked", mood=mood)
        return done(unasked_reply(mood, reading, chinese=chinese), suggestions=_suggestions(ctx), unasked=mood)
    if chinese:
        reason = "我没太明白你想做什么。"
    else:
        reason = route.reason if route and route.reason else "I'm not sure what you'd like me to do."
    return clarify_outcome(f"{reason}\n{what_works_here(ctx, chinese=chinese)}", suggestions=_suggestions(ctx))
