"""Let the model look into an externalized result through the bounded inspection tools.

The model chooses the operation (outline, search, head, tail, context) and its small arguments;
the runtime binds the artifact ref, so the model never types it. This module holds the tools, one
inspection (``inspect_once``) and its excerpt as words; the loop that offers them within a
capability's budget is common/looking.py.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from inspect import Parameter, signature
from typing import Any

from django.contrib.auth.models import User
from langgraph.runtime import Runtime

from agent.artifacts import inspect as inspection
from agent.artifacts.summary import size_words, value_words
from agent.context.words import quote_user_text
from agent.models import TraceEvent
from agent.prompting.messages import PromptPart
from agent.runtime import RunContext
from agent.words.language import in_each_language
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
# Offered when a read is paged by a keyset cursor: the runtime reads the page after the one shown, passing the
# cursor that page holds, so the model never types a position.
NEXT_PAGE_TOOL = _tool("next_page", "The next page of the ranking: the tasks after those shown so far.", {})


def offered_tools(sources: Sequence[str], *, paging: bool) -> list[dict[str, Any]]:
    """The tools a call offers: the inspection tools (naming the source when there are several), and the next page."""
    tools = [] if not sources else INSPECT_TOOLS if len(sources) == 1 else [
        _tool(t["function"]["name"], t["function"]["description"] + " Name which stored result to look into.",
              {"source": {"type": "string", "enum": list(sources)}, **t["function"]["parameters"]["properties"]})
        for t in INSPECT_TOOLS]
    return [*tools, NEXT_PAGE_TOOL] if paging else list(tools)


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
                 arguments_json: str, source: str | None = None) -> Excerpt | None:
    """Run one inspection the model asked for; None when the request is not usable.

    ``source`` is the name of the stored result the call must name in its "source" argument (when the
    model was offered several; the loop picked the ref by it), not passed on to the tool.
    """
    recorder = runtime.context.recorder
    try:
        arguments = json_loads_bounded(arguments_json or "{}")
    except JSONInputError:
        return None
    if source is not None and (not isinstance(arguments, dict) or arguments.pop("source", None) != source):
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
