"""Small constructors for what a capability returns."""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agent.prompting.messages import AssembledPrompt, PromptPart, PromptRefused, prompt_assemble
from agent.runtime import RunContext
from agent.state import Outcome


def done(reply: str, **data: Any) -> dict[str, Outcome]:
    return {"outcome": {"status": "done", "reply": reply, "data": data}}


def clarify(reply: str, **data: Any) -> dict[str, Outcome]:
    return {"outcome": {"status": "needs_clarification", "reply": reply, "data": data}}


def failed(reply: str, code: str, **data: Any) -> dict[str, Outcome]:
    return {"outcome": {"status": "error", "reply": reply, "data": data, "error_code": code}}


def ask_approval(*, action: str, facts: dict[str, Any], question: str) -> dict[str, Any]:
    """Pause the run until the user decides; the card shows the facts and the question, worded here.

    Returns the decision the user sent (``{"decision": ..., "facts": <the facts they saw>}``).
    """
    decision: dict[str, Any] = interrupt({"action": action, "facts": facts, "reply": question})
    return decision


def assemble_checked(runtime: Runtime[RunContext], parts: list[PromptPart]) -> AssembledPrompt:
    """Assemble a prompt; a refusal is recorded as an alert and re-raised so no LLM call is made."""
    try:
        return prompt_assemble(parts)
    except PromptRefused as exc:
        runtime.context.recorder.alert(exc.kind, str(exc), key=f"{exc.ref}:{'/'.join(exc.forms)}",
                                       ref=exc.ref, forms=exc.forms)
        raise PromptRefused(f"The assistant stopped before asking the model: {exc}", ref=exc.ref,
                            forms=exc.forms, kind=exc.kind) from None
