"""What a breakdown reads besides the task's facts: its description and its subtasks, each stored apart when long.

Seed 000's lifecycle, "index → inspect on demand": a description over the inline limit is stored
as text (its summary quotes the start of its first lines, cut from the stored text), and more
subtasks than the inline limit are stored as rows indexed by key and title. The planner then gets
their summaries and may look into either, by name, within decompose's inspection budget
(common/looking.py); a short one is said whole in the task's words. The rule-based planner reads
them as code: the description's start and every subtask title, bound from the step.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.runtime import Runtime

from agent.artifacts.classify import Classified
from agent.capabilities.common.looking import Source
from agent.runtime import RunContext
from agent.tools.binding import Binding

from . import tools as subtask_tools

DESCRIPTION_STEP, SUBTASKS_STEP = "parent:description", "parent:subtasks"
# How much of a description the rule-based planner reads (its rules look at the first sentences and bullets).
OFFLINE_DESCRIPTION_MAX = 20_000
_HEADINGS = {"description": "The task's description (a summary; the text is stored apart):",
             "subtasks": "The task's existing subtasks (a summary; the rows are stored apart):"}


@dataclass(frozen=True)
class Material:
    """The task's description and subtasks as this run read them: each inline, or stored apart."""

    description: Classified
    subtasks: Classified

    def _by_name(self) -> dict[str, Classified]:
        return {"description": self.description, "subtasks": self.subtasks}

    def stored_apart(self) -> frozenset[str]:
        """The names of the parts that are stored apart (their summary stands for them in a prompt)."""
        return frozenset(name for name, c in self._by_name().items() if c.externalized)

    def sources(self) -> list[Source]:
        """The stored parts the planner may look into, each by its name, with its summary as the first form."""
        return [Source(name, c.ref, c.as_prompt_part(heading=_HEADINGS[name]))
                for name, c in self._by_name().items() if c.externalized]

    def description_text(self) -> str:
        """The whole description when it is inline (empty when it is stored apart)."""
        return "" if self.description.externalized else str(self.description.data or "")

    def subtask_titles(self) -> list[str]:
        """The subtasks' titles when they are inline (empty when they are stored apart)."""
        if self.subtasks.externalized or not isinstance(self.subtasks.data, dict):
            return []
        return [str(row["title"]) for row in self.subtasks.data.get("items") or []]


def material_read(runtime: Runtime[RunContext], brief: Mapping[str, Any]) -> Material:
    """Read the task's description and subtasks as the user; each is classified (inline or stored) on its own."""
    runner = runtime.context.tools
    project = [brief["project_id"]]
    description = runner.read(DESCRIPTION_STEP, "parent_description", subtask_tools.parent_description,
                              scope=lambda _: project, task_id=brief["task_id"])
    subtasks = runner.read(SUBTASKS_STEP, "parent_subtasks", subtask_tools.parent_subtasks,
                           scope=lambda _: project, task_id=brief["task_id"])
    return Material(description=description, subtasks=subtasks)


def offline_brief(runtime: Runtime[RunContext], brief: Mapping[str, Any]) -> dict[str, Any]:
    """The brief as the rule-based planner reads it: the description's start and every subtask title, by binding."""
    runner = runtime.context.tools
    titles: list[str] = []
    if runner.count(SUBTASKS_STEP):
        titles = runner.bind("offline_plan", {"titles": Binding(from_step=SUBTASKS_STEP, path="$.items[*].title")})[
            "titles"]
    return {**brief, "description": runner.text(DESCRIPTION_STEP, limit=OFFLINE_DESCRIPTION_MAX),
            "existing_titles": titles}
