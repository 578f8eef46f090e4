"""The Prompt Assembler: the only place that builds LLM messages (seed 000, single representation).

Every part names its source ref and its form. One source in two forms (or twice) in one call
is refused before any request is sent, and recorded as an alert.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

Message = dict[str, str]

Form = Literal["instruction", "full", "summary", "preview", "restatement", "truncated"]
ChatRole = Literal["system", "user"]
# Field names that only appear when a raw page context has been pasted into a prompt.
_RAW_CONTEXT_MARKERS = ("visibleEntityIds", "visible_entity_ids", "routeParams", "selectedEntity", '"origin"',
                        "page_context", "searchKeyword", "pageSize")


# Parts rendered from the page context: the ones where a pasted raw context could hide.
CONTEXT_REFS = frozenset({"router_ctx", "model_summary"})


class PromptRefused(Exception):
    """The parts break a prompt rule; no LLM call may be made with them."""

    code = "prompt_refused"

    def __init__(self, message: str, *, ref: str, forms: list[str], kind: str = "duplicate_form") -> None:
        super().__init__(message)
        self.ref = ref
        self.forms = forms
        # Which rule refused: "duplicate_form" (one source, several forms) or "raw_context".
        self.kind = kind


@dataclass(frozen=True)
class PromptPart:
    ref: str
    form: Form
    role: ChatRole
    text: str
    heading: str = ""


@dataclass(frozen=True)
class AssembledPrompt:
    messages: list[Message]
    parts: tuple[PromptPart, ...] = field(default=())

    def manifest(self) -> list[dict[str, str]]:
        """Return ref and form of every part, for the trace and the audit."""
        return [{"ref": p.ref, "form": p.form, "role": p.role} for p in self.parts]


def prompt_assemble(parts: list[PromptPart]) -> AssembledPrompt:
    """Check the parts and join them into system and user messages."""
    forms: dict[str, list[str]] = defaultdict(list)
    for part in parts:
        forms[part.ref].append(part.form)
    for ref, seen in forms.items():
        if len(seen) > 1:
            raise PromptRefused(f"Source {ref} would enter one prompt {len(seen)} times, as {', '.join(seen)}.",
                                ref=ref, forms=seen)
    for part in parts:
        # Only what is written from the page context or by us is checked: the user's own words and
        # the rows of a tool result may mention "pageSize" without being a pasted context.
        if part.ref not in CONTEXT_REFS and part.form != "instruction":
            continue
        for marker in _RAW_CONTEXT_MARKERS:
            if marker in part.text:
                raise PromptRefused(f"Part {part.ref} carries raw page-context data ({marker}).",
                                    ref=part.ref, forms=[part.form], kind="raw_context")
    messages: list[Message] = []
    for role in ("system", "user"):
        texts = [f"{p.heading}\n{p.text}" if p.heading else p.text for p in parts if p.role == role]
        if texts:
            messages.append({"role": role, "content": "\n\n".join(texts)})
    return AssembledPrompt(messages=messages, parts=tuple(parts))
