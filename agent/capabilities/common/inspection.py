"""Let the model look into an externalized result through the bounded inspection tools.

The model chooses the operation (outline, search, head, tail, context) and its small arguments;
the runtime binds the artifact ref, so the model never types it. ``inspect_loop`` offers the tools
for up to the capability's declared ``inspection_rounds``; each excerpt enters the next prompt in
place of the ref's previous form (its summary, or the excerpt before): one source, one form per call.
A request past the budget, or one that cannot be run, is dropped with an ``inspection_dropped``
alert, and the answer says it was made from the summary.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from inspect import Parameter, signature
from typing import Any

from django.contrib.auth.models import User
from langgraph.runtime import Runtime

from agent.artifacts import inspect as inspection
from agent.artifacts.summary import size_words, value_words
from agent.context.words import quote_user_text
from agent.llm.base import LLMReply
from agent.models import Alert, TraceEvent
from agent.prompting.messages import PromptPart
from agent.registry import BY_NAME
from agent.runtime import RunContext
from agent.words.language import Language, in_each_language
from pm_assistant.errors import ApplicationError
from pm_assistant.json_input import JSONInputError, json_loads_bounded


def _tool(name: str, description: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description, "strict": True,
        "parameters": {"type": "object", "properties": properties, "required": list(properties),
                       "additionalProperties": False}}}


_COUNT = {"type": "integer", "description": "How many (small numbers; the answer is bounded)."}
INSPECT_TOOLS: list[dict[str, Any]] = [
    _tool("outline", "Structure of the stored result: fields, types, counts.", {}),
    _tool("search", "Find stored task rows by key, words of the title, status or assignee; bounded hits "
                    "with line numbers.",
          {"pattern": {"type": "string"}, "max_hits": _COUNT}),
    _tool("head", "The first rows of the stored result.", {"lines": _COUNT}),
    _tool("tail", "The last rows of the stored result.", {"lines": _COUNT}),
    _tool("context", "The rows around a line number.", {"line": {"type": "integer"}, "radius": _COUNT}),
]
_RUN: dict[str, Callable[..., dict[str, Any]]] = {
    "outline": inspection.artifact_outline, "search": inspection.artifact_search,
    "head": inspection.artifact_head, "tail": inspection.artifact_tail, "context": inspection.artifact_context,
}
_ALLOWED_ARGS = {"outline": set(), "search": {"pattern", "max_hits"}, "head": {"lines"}, "tail": {"lines"},
                 "context": {"line", "radius"}}
# The arguments a tool cannot run without: read from its signature (the runtime binds user and ref).
_REQUIRED_ARGS = {name: {p.name for p in signature(fn).parameters.values() if p.default is Parameter.empty}
                  - {"user", "ref"} for name, fn in _RUN.items()}


def _live_words(answer: dict[str, Any]) -> str:
    """A live search's rows as words: the stored result was out of date, so these are the tasks as they are now."""
    head = (f"search of the CURRENT tasks ({answer['hit_count']} found"
            + (", more not shown" if answer.get("partial") else "")
            + "): the stored result is stale (its tasks changed since it was read), so this came from a live query:")
    rows = [f"- {r['key']} {quote_user_text(r['title'], 120)}: {str(r['status']).replace('_', ' ')}"
            + (f", assigned to {r['assignee']}" if r.get("assignee") else ", unassigned")
            + (f", due {r['due_date']}" if r.get("due_date") else "") for r in answer["rows"]]
    return "\n".join([head, *rows])


def _excerpt_text(answer: dict[str, Any]) -> str:
    """Render an inspection answer for the prompt; rows are quoted exactly as stored."""
    if answer.get("expired"):
        return str(answer.get("message", "The stored result has expired."))
    if answer.get("live"):
        return _live_words(answer)
    head = f"{answer['tool']} of the stored result" + (" (partial)" if answer.get("partial") else "")
    if "lines" in answer:
        return head + ":\n" + "\n".join(f"line {e['line']}: {e['text']}" for e in answer["lines"])
    if "hits" in answer:
        return head + f", {answer['hit_count']} hits:\n" + "\n".join(
            f"line {h['line']}: …{h['snippet']}…" for h in answer["hits"])
    if "text" in answer:
        return head + ":\n" + str(answer["text"])
    return head + ":\n" + _outline_words(answer)


def _outline_words(answer: dict[str, Any]) -> str:
    """Structure, counts and flags of an outline as words.

    The answer also carries the query's own arguments (page filters, search text, ids), the hash
    and the times; those stay in the trace and never reach the model.
    """
    size = size_words(answer["size_bytes"]) if isinstance(answer.get("size_bytes"), int) else "unknown size"
    lines = [f"Source: {answer.get('source_tool')}; {answer.get('item_count')} items, "
             f"{answer.get('line_count')} lines, {size}, {answer.get('content_type')} ({answer.get('kind')})."]
    fields = answer.get("fields") or {}
    if fields:
        total = answer.get("field_count") or len(fields)
        lines.append(f"Fields ({total}): " + ", ".join(f"{name} ({kind})" for name, kind in fields.items())
                     + (f", … (+{total - len(fields)} more)" if total > len(fields) else ""))
    meta = answer.get("meta") or {}
    scalars = [(k, v) for k, v in meta.items() if v is None or isinstance(v, (str, int, float, bool))]
    if scalars:
        lines.append("Result: " + ", ".join(f"{k}={value_words(v)}" for k, v in scalars))
    flags = [name.removeprefix("is_") for name, on in (answer.get("flags") or {}).items() if on]
    lines.append(f"Flags: {', '.join(flags) or 'none'}.")
    return "\n".join(lines)


WORDS = in_each_language(
    en={"dropped": "(Answered from the summary of the stored result: {why}.)",
        "budget": "the assistant asked to look at it more times than allowed",
        "unusable": "a look into it could not be made",
        "stale": "(The stored result was out of date, so the search read the current tasks.)"},
    zh={"dropped": "（根据存储结果的摘要回答：{why}。）",
        "budget": "助手查看的次数超出了允许的范围",
        "unusable": "无法查看存储的结果",
        "stale": "（存储的结果已过时，搜索读取的是当前的任务。）"},
)


@dataclass(frozen=True)
class Excerpt:
    part: PromptPart
    answer: dict[str, Any]


def inspect_once(runtime: Runtime[RunContext], *, user: User, ref: str, name: str,
                 arguments_json: str) -> Excerpt | None:
    """Run one inspection the model asked for; None when the request is not usable."""
    recorder = runtime.context.recorder
    try:
        arguments = json_loads_bounded(arguments_json or "{}")
    except JSONInputError:
        return None
    if name not in _RUN or not isinstance(arguments, dict) or set(arguments) - _ALLOWED_ARGS[name] \
            or _REQUIRED_ARGS[name] - set(arguments):
        return None
    bound = {"ref": {"binding": "the stored result of this run", "sha256": ""}}
    try:
        answer = _RUN[name](user=user, ref=ref, **arguments)
    except ApplicationError as exc:
        recorder.tool_call(f"inspect_{name}", arguments={"ref": ref, **arguments}, error=f"{exc.code}: {exc.message}",
                           bound=bound)
        return None
    recorder.tool_call(f"inspect_{name}", arguments={"ref": ref, **arguments}, result=answer, bound=bound)
    previews = [{"ref": ref, "unit": "bytes", "start": e["offset"], "text": e["text"]}
                for e in answer.get("lines") or [] if not e["cut"]]
    previews += [{"ref": ref, "unit": "bytes", "start": h["snippet_offset"], "text": h["snippet"]}
                 for h in answer.get("hits") or []]
    if previews:
        recorder.event(TraceEvent.Kind.ARTIFACT, f"inspect_{name}", previews=previews)
    return Excerpt(PromptPart(ref=ref, form="preview", role="user", text=_excerpt_text(answer),
                              heading="An excerpt of the stored result:"), answer)


@dataclass
class Inspected:
    """How an inspected answer came about: the model's last reply (None when an inspection was dropped)."""

    reply: LLMReply | None
    shown: list[PromptPart]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    dropped: str | None = None

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
    asked = [r["tool"] + (f" {quote_user_text(str(r['arguments']['pattern']), 60)}" if "pattern" in r["arguments"]
                          else "") for r in rounds]
    return "You looked at the stored result with: " + "; ".join(asked) + "."


def inspect_loop(runtime: Runtime[RunContext], *, capability: str, ref: str, first: PromptPart,
                 parts_with: Callable[[PromptPart, list[PromptPart]], list[PromptPart]],
                 assemble: Callable[[list[PromptPart]], Any], purpose: str) -> Inspected:
    """Ask the model, offering the inspection tools for up to the capability's declared rounds.

    ``parts_with(form, notes)`` builds a call's parts with the ref in the given form; ``notes`` tells
    the model what it already looked at. The loop ends at a text answer, or drops the first request
    past the budget (or one that cannot run) with an alert: then ``reply`` is None.
    """
    llm, recorder, user = runtime.context.llm, runtime.context.recorder, runtime.context.tools.user
    budget = BY_NAME[capability].inspection_rounds
    form, done = first, Inspected(reply=None, shown=[])
    while True:
        notes = [PromptPart(ref="inspections_made", form="summary", role="user",
                            text=_asked_words(done.rounds))] if done.rounds else []
        done.shown = parts_with(form, notes)
        reply = llm.complete(purpose=purpose if not done.rounds else f"{purpose}_after_inspection",
                             role="generation", prompt=assemble(done.shown), tools=INSPECT_TOOLS, prose=True)
        if not reply.tool_calls:
            done.reply = reply
            return done
        call = reply.tool_calls[0]
        excerpt = None if len(done.rounds) >= budget else inspect_once(
            runtime, user=user, ref=ref, name=call.name, arguments_json=call.arguments)
        if excerpt is None:
            done.dropped = "budget" if len(done.rounds) >= budget else "unusable"
            message = (f"The model asked for inspection {call.name!r} after {len(done.rounds)} of {budget} rounds"
                       if done.dropped == "budget" else f"The model's inspection request {call.name!r} could not run")
            recorder.event(TraceEvent.Kind.NODE, "inspection_dropped", ref=ref, tool=call.name, why=done.dropped,
                           rounds=len(done.rounds), budget=budget)
            recorder.alert(Alert.Kind.INSPECTION_DROPPED, message + "; the answer used the summary.",
                           key=f"{purpose}:{len(done.rounds)}", ref=ref, tool=call.name, why=done.dropped)
            return done
        answer = excerpt.answer
        done.rounds.append({"tool": call.name, "arguments": {k: v for k, v in answer.items() if k == "pattern"},
                            "stale": bool(answer.get("stale")), "live": bool(answer.get("live")),
                            "partial": bool(answer.get("partial"))})
        recorder.event(TraceEvent.Kind.NODE, "inspection", ref=ref, round=len(done.rounds), budget=budget,
                       tool=call.name, stale=bool(answer.get("stale")), live=bool(answer.get("live")),
                       index=answer.get("index"))
        form = excerpt.part
