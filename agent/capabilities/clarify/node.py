"""clarify: say what was unclear, then what works on this page, with its quick actions as buttons.

clarify and help answer from the registry (the examples) and the quick-action table (the buttons), so
neither offers a capability that is not built or a button the page does not have.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import clarify as clarify_outcome
from agent.capabilities.common.outcome import done
from agent.context.three_views import RouterCtx
from agent.llm.offline import unasked_write
from agent.page_context.schema import EntityNames
from agent.reading.reader import read
from agent.registry import HELP_EXAMPLES
from agent.routing.decision import Route
from agent.routing.quick_actions import quick_actions_for
from agent.runtime import RunContext
from agent.tools.project_tools import project_for_examples
from agent.words.language import language_of
from pm_assistant.markdown import literal

from .unasked import unasked_reply

# How many unread phrases a reply names, and how long each may be.
_PHRASES_SHOWN, _PHRASE_CHARS = 5, 40


def written_in_chinese(message: str) -> bool:
    """A message written in Chinese is answered with Chinese words around the same lists (agent.words.language)."""
    return language_of(message) == "zh"



class ClarifyInput(TypedDict):
    message: str
    router_ctx: RouterCtx
    route: NotRequired[Route | None]
    names: NotRequired[EntityNames | None]


def unread_words(message: str) -> tuple[str, ...]:
    """The phrases of a message the reader could not read (at most five, each cut to 40 characters)."""
    reading = read(message)
    if reading.capability != "clarify":
        return ()
    shown = reading.unusable[:_PHRASES_SHOWN]
    return tuple(w if len(w) <= _PHRASE_CHARS else f"{w[:_PHRASE_CHARS - 1]}…" for w in shown)


def suggestions_for(ctx: RouterCtx) -> list[dict[str, str]]:
    return [{"action": entry.action, "label": entry.label} for entry in quick_actions_for(ctx.page)]


def example_project(state: ClarifyInput, runtime: Runtime[RunContext]) -> str | None:
    """The project help's examples name: the page's, else the user's first; None when they have none."""
    names = state.get("names")
    if names is not None and names.project_name:
        return names.project_name
    found = runtime.context.tools.read("help.project", "project_for_examples", project_for_examples,
                                       scope=lambda result: [item["id"] for item in result["items"]])
    items = found.data.get("items") if isinstance(found.data, dict) else None
    return str(items[0]["name"]) if items else None


def what_works_here(ctx: RouterCtx, *, chinese: bool, project: str | None) -> str:
    """The page's quick actions by label, then a typed example for each capability (naming the user's own
    project, or left out where it would need one and they have none)."""
    labels = ("、" if chinese else ", ").join(f"“{entry.label}”" for entry in quick_actions_for(ctx.page))
    shown = [(spec, spec.example_for(chinese=chinese, project=project)) for spec in HELP_EXAMPLES]
    if chinese:
        examples = "\n".join(f"- {spec.label_zh}：“{text}”" for spec, text in shown if text)
        buttons = f"本页的快捷操作：{labels}。\n" if labels else ""
        return f"{buttons}也可以直接输入（中文或英文），例如：\n{examples}"
    examples = "\n".join(f"- {spec.label}: “{text}”" for spec, text in shown if text)
    buttons = f"On this page: {labels} (the buttons below).\n" if labels else ""
    return f"{buttons}Or ask in your own words, for example:\n{examples}"


def clarify(state: ClarifyInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Say what was unclear, then what works on this page; a write named but not asked for changes nothing."""
    ctx, route = state["router_ctx"], state.get("route")
    message = state.get("message") or ""
    chinese = written_in_chinese(message)
    unasked = unasked_write(message)
    declined = route is not None and route.intent is not None and route.intent.verdict == "declined"
    if unasked is not None or declined:
        mood, reading = unasked if unasked is not None else (route.intent.mood or "question", None)  # type: ignore[union-attr]
        runtime.context.recorder.node("clarify.unasked", mood=mood)
        selected = ctx.selected_entity is not None
        return done(unasked_reply(mood, reading, chinese=chinese, selected=selected), suggestions=suggestions_for(ctx),
                    unasked=mood)
    unread = unread_words(message) if message and runtime.context.llm.offline else ()
    if unread:
        # The offline reader stands in for the model: what it could not read is named, never passed over.
        shown = [literal(w) for w in unread]  # the user's words, shown as written (no Markdown of theirs)
        reason = (f"我没能读懂{'、'.join(f'“{w}”' for w in shown)}，不确定你想做什么。" if chinese else
                  f"I couldn't read {', '.join(f"'{w}'" for w in shown)}, so I'm not sure what you'd like me to do.")
    elif chinese:
        reason = "我没太明白你想做什么。"
    else:
        reason = route.reason if route and route.reason else "I'm not sure what you'd like me to do."
    project = example_project(state, runtime)
    return clarify_outcome(f"{reason}\n{what_works_here(ctx, chinese=chinese, project=project)}",
                           suggestions=suggestions_for(ctx))
