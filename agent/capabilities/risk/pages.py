"""The risk ranking's next pages, for a model that asks for them while it writes the summary.

The first page is the one the answer shows (RISK_TOP rows); the database hands back the keyset
position of the page after it (``next``). The model asks for ``next_page`` (common/looking.py); the
runtime binds that position from the page shown last and reads the next page as the user, over the
same scope and day, through the ToolRunner. Each page is one round of risk's inspection budget.
"""
from __future__ import annotations

from datetime import date

from langgraph.runtime import Runtime

from agent.artifacts.classify import Classified
from agent.capabilities.common.looking import Pager
from agent.context.words import quote_user_text
from agent.prompting.messages import PromptPart
from agent.runtime import RunContext

from .tools import risk_tasks_for


def page_part(classified: Classified) -> PromptPart:
    """A page of the ranking as words: each task's key, quoted title, score, status and due date (no ids)."""
    heading = "The next page of the ranking:"
    if classified.externalized:
        return classified.as_prompt_part(heading=heading)
    rows = classified.data.get("items") or []
    lines = [f"- {r['key']} {quote_user_text(r['title'], 80)}: score {r['score']}, "
             f"{str(r['status']).replace('_', ' ')}" + (f", due {r['due_date']}" if r.get("due_date") else "")
             for r in rows]
    more = "more tasks follow" if classified.data.get("next") else "no task with a risk score follows"
    return PromptPart(ref=classified.ref, form="full", role="user", heading=heading,
                      text="\n".join([f"{len(rows)} tasks, riskiest first ({more}):", *lines]))


def risk_pager(runtime: Runtime[RunContext], *, step: str, project_id: int | None, today: date) -> Pager:
    """The pages after the one read at ``step``, over the same scope and day."""
    steps = runtime.context.tools

    def read(page_step: str, cursor: str, binding: str) -> Classified:
        return steps.read(page_step, "risk_tasks", risk_tasks_for, scope=lambda page: page["project_ids"],
                          bound={"after": binding},
                          project_id=project_id, today=today, after=cursor)

    return Pager(step=step, read=read, part=page_part)
