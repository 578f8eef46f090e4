"""The inspection loop: look at a stored result's structure, then read the part that matters, within a budget.

Seed 000's lifecycle ends in "index → inspect on demand": a capability that stored a large result
asks the model with the result's bounded summary in the prompt and the inspection tools offered
(common/inspection.py). Each tool call the model makes is one round of the capability's declared
``inspection_rounds``; its excerpt enters the next prompt in place of that source's previous form
(its summary, or the excerpt before), so a source is in one form per call. Several sources (a task's
description and its subtasks) are told apart by name, never by ref. A read paged by a keyset cursor
offers ``next_page``: the runtime binds the cursor the shown page holds and reads the next page as
the user, through the ToolRunner, within the same budget. A request past the budget, or one that
cannot run, is dropped with an ``inspection_dropped`` alert and a trace event, and the answer says
it was made from the summary.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langgraph.runtime import Runtime

from agent.artifacts.classify import Classified
from agent.context.words import quote_user_text
from agent.llm.base import LLMReply, ToolRequest
from agent.models import Alert, TraceEvent
from agent.prompting.messages import PromptPart
from agent.registry import BY_NAME
from agent.runtime import RunContext
from agent.tools.binding import Binding, BindingUnresolved
from agent.words.language import Language
from pm_assistant.errors import ApplicationError
from pm_assistant.json_input import JSONInputError, json_loads_bounded

from . import inspection
from .inspection import WORDS, offered_tools


@dataclass(frozen=True)
class Source:
    """A stored result the model may look into: the name it is called by, its ref, and the part that stands
    for it at first (its summary)."""

    name: str
    ref: str
    first: PromptPart


@dataclass
class Pager:
    """The pages after the one a step read: ``read(step, cursor, binding)`` reads one through the ToolRunner (scoped
    as the first; ``binding`` describes where the cursor came from), ``part(classified)`` says it in the prompt;
    ``step`` is the step holding the page shown last."""

    step: str
    read: Callable[[str, str, str], Classified]
    part: Callable[[Classified], PromptPart]
    cursor_path: str = "$.next"
    pages: int = 0

    def has_next(self, runtime: Runtime[RunContext]) -> bool:
        return bool(runtime.context.tools.meta(self.step).get(self.cursor_path.removeprefix("$.")))

    def next(self, runtime: Runtime[RunContext]) -> PromptPart | None:
        """Read the page after the shown one; None when there is none or it cannot be read."""
        runner = runtime.context.tools
        step = f"{self.step.split(':')[0]}:page{self.pages + 2}"
        binding = Binding(from_step=self.step, path=self.cursor_path)
        try:
            cursor = runner.bind(step, {"after": binding})["after"]
            if not isinstance(cursor, str) or not cursor:
                return None
            classified = self.read(step, cursor, binding.describe())
        except (ApplicationError, BindingUnresolved):
            return None
        self.step, self.pages = step, self.pages + 1
        return self.part(classified)


@dataclass
class Inspected:
    """How an inspected answer came about: the model's last reply (None when an inspection was dropped)."""

    reply: LLMReply | None
    shown: list[PromptPart]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    dropped: str | None = None
    # What the loop put in the last prompt in place of a summary: the excerpts and the page read last.
    looked: list[PromptPart] = field(default_factory=list)

    @property
    def live(self) -> bool:
        return any(r.get("live") for r in self.rounds)

    def note(self, language: Language) -> str:
        """What the answer must say about how it was made: from the summary, or from a live read."""
        words = WORDS[language]
        if self.dropped:
            return words["dropped"].format(why=words[self.dropped])
        return words["stale"] if self.live else ""

    def as_data(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "dropped": self.dropped, "stale": self.live, "live": self.live}


def _asked_words(rounds: list[dict[str, Any]]) -> str:
    asked = [r["tool"] + (f" {r['source']}" if r.get("source") else "")
             + (f" {quote_user_text(str(r['arguments']['pattern']), 60)}" if "pattern" in r["arguments"] else "")
             for r in rounds]
    return "You looked at the stored result with: " + "; ".join(asked) + "."


def _which(call: ToolRequest, sources: Sequence[Source]) -> Source | None:
    """The source a call names (the only one when there is one)."""
    if len(sources) == 1:
        return sources[0]
    try:
        arguments = json_loads_bounded(call.arguments or "{}")
    except JSONInputError:
        return None
    named = [s for s in sources if isinstance(arguments, dict) and s.name == arguments.get("source")]
    return named[0] if named else None


@dataclass
class _Round:
    """What one tool call gave: the part to show instead of a source's previous form, and its trace facts."""

    key: str
    part: PromptPart
    facts: dict[str, Any]


def _look(runtime: Runtime[RunContext], call: ToolRequest, sources: Sequence[Source],
          pager: Pager | None) -> _Round | None:
    """Run one call the model made; None when it cannot run."""
    if call.name == "next_page":
        part = pager.next(runtime) if pager is not None and pager.has_next(runtime) else None
        return _Round("page", part, {"tool": "next_page", "arguments": {}, "step": pager.step}) \
            if part is not None and pager is not None else None
    source = _which(call, sources) if sources else None
    if source is None:
        return None
    excerpt = inspection.inspect_once(runtime, user=runtime.context.tools.user, ref=source.ref, name=call.name,
                                      arguments_json=call.arguments,
                                      source=source.name if len(sources) > 1 else None)
    if excerpt is None:
        return None
    answer = excerpt.answer
    facts = {"tool": call.name, "arguments": {k: v for k, v in answer.items() if k == "pattern"},
             "stale": bool(answer.get("stale")), "live": bool(answer.get("live")),
             "partial": bool(answer.get("partial")), "index": answer.get("index"), "ref": source.ref,
             **({"source": source.name} if len(sources) > 1 else {})}
    return _Round(source.ref, excerpt.part, facts)


def inspect_loop(runtime: Runtime[RunContext], *, capability: str, sources: Sequence[Source],
                 parts_with: Callable[[list[PromptPart], list[PromptPart]], list[PromptPart]],
                 assemble: Callable[[list[PromptPart]], Any], purpose: str, pager: Pager | None = None,
                 json_schema: dict[str, Any] | None = None, prose: bool = True) -> Inspected:
    """Ask the model, offering the inspection tools (and the next page) for up to the capability's declared rounds.

    ``parts_with(shown, notes)`` builds a call's parts around ``shown``, the current form of each source (and
    the page read last); ``notes`` tells the model what it already looked at. With ``json_schema`` the
    answer is JSON; ``prose`` streams a text answer to the sidebar as it comes (not one checked before it
    is shown). The loop ends at an answer, or drops the first request past the budget (or one that cannot
    run) with an alert: then ``reply`` is None.
    """
    llm, recorder = runtime.context.llm, runtime.context.recorder
    budget = BY_NAME[capability].inspection_rounds
    forms: dict[str, PromptPart] = {s.ref: s.first for s in sources}
    done = Inspected(reply=None, shown=[])
    names = [s.name for s in sources]
    while True:
        notes = [PromptPart(ref="inspections_made", form="summary", role="user",
                            text=_asked_words(done.rounds))] if done.rounds else []
        done.shown = parts_with(list(forms.values()), notes)
        tools = offered_tools(names, paging=pager is not None and pager.has_next(runtime))
        reply = llm.complete(purpose=purpose if not done.rounds else f"{purpose}_after_inspection",
                             role="generation", prompt=assemble(done.shown), tools=tools or None,
                             json_schema=json_schema, prose=prose and json_schema is None)
        if not reply.tool_calls:
            done.reply = reply
            return done
        call = reply.tool_calls[0]
        looked = None if len(done.rounds) >= budget else _look(runtime, call, sources, pager)
        if looked is None:
            done.dropped = "budget" if len(done.rounds) >= budget else "unusable"
            message = (f"The model asked for inspection {call.name!r} after {len(done.rounds)} of {budget} rounds"
                       if done.dropped == "budget" else f"The model's inspection request {call.name!r} could not run")
            ref = sources[0].ref if len(sources) == 1 else ",".join(s.ref for s in sources)
            recorder.event(TraceEvent.Kind.NODE, "inspection_dropped", ref=ref, tool=call.name, why=done.dropped,
                           rounds=len(done.rounds), budget=budget)
            recorder.alert(Alert.Kind.INSPECTION_DROPPED, message + "; the answer used the summary.",
                           key=f"{purpose}:{len(done.rounds)}", ref=ref, tool=call.name, why=done.dropped)
            return done
        # The excerpt stands for its source from now on; a page stands in place of the page before.
        forms[looked.key] = looked.part
        done.looked = [p for k, p in forms.items() if k == "page" or p.form == "preview"]
        done.rounds.append({k: v for k, v in looked.facts.items() if k in ("tool", "arguments", "stale", "live",
                                                                          "partial", "source", "step")})
        recorder.event(TraceEvent.Kind.NODE, "inspection", round=len(done.rounds), budget=budget,
                       **{k: v for k, v in looked.facts.items() if k != "arguments"})
