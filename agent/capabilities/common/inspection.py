"""Let the model look into an externalized result through the bounded inspection tools.

The model chooses the operation (outline, search, head, tail, context) and its small arguments;
the runtime binds the artifact ref, so the model never types it. What comes back enters the next
prompt as an excerpt of the artifact, in place of its summary: one source, one form per call.
"""
from __future__ import annotations

from collections.abc import Callable
from inspect import Parameter, signature
from typing import Any

from django.contrib.auth.models import User
from langgraph.runtime import Runtime

from agent.artifacts import inspect as inspection
from agent.artifacts.summary import size_words, value_words
from agent.models import TraceEvent
from agent.prompting.assembler import PromptPart
from agent.runtime import RunContext
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
    _tool("search", "Find a literal text in the stored rows; bounded hits with line numbers.",
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


def _excerpt_text(answer: dict[str, Any]) -> str:
    """Render an inspection answer for the prompt; rows are quoted exactly as stored."""
    if answer.get("expired"):
        return str(answer.get("message", "The stored result has expired."))
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


def inspect_once(runtime: Runtime[RunContext], *, user: User, ref: str, name: str,
                 arguments_json: str) -> PromptPart | None:
    """Run one inspection the model asked for; None when the request is not usable."""
    recorder = runtime.context.recorder
    try:
        arguments = json_loads_bounded(arguments_json or "{}")
    except JSONInputError:
        return None
    if name not in _RUN or not isinstance(arguments, dict) or set(arguments) - _ALLOWED_ARGS[name] \
            or _REQUIRED_ARGS[name] - set(arguments):
        return None
    try:
        answer = _RUN[name](user=user, ref=ref, **arguments)
    except ApplicationError as exc:
        recorder.tool_call(f"inspect_{name}", arguments={"ref": ref, **arguments}, error=f"{exc.code}: {exc.message}",
                           bound={"ref": {"binding": "the query's artifact", "sha256": ""}})
        return None
    recorder.tool_call(f"inspect_{name}", arguments={"ref": ref, **arguments}, result=answer,
                       bound={"ref": {"binding": "the query's artifact", "sha256": ""}})
    rows = answer.get("lines") or []
    if rows:
        recorder.event(TraceEvent.Kind.ARTIFACT, f"inspect_{name}", previews=[
            {"ref": ref, "unit": "bytes", "start": e["offset"], "text": e["text"]} for e in rows if not e["cut"]])
    return PromptPart(ref=ref, form="preview", role="user", text=_excerpt_text(answer),
                      heading="An excerpt of the stored query result:")
