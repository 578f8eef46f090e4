"""A plan: ordered steps, each naming a plan tool and its arguments; ids only ever as bindings."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agent.tools.binding import Binding

# The pseudo-step a binding names to mean "the task the user selected": its result is the parent's row.
SELECTED = "selected"
STEP_ID_PATTERN = r"^s[0-9]{1,3}$"


class PlanStep(BaseModel):
    """One step: its id (s1, s2, …), the plan tool it runs and the arguments as the planner wrote them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=STEP_ID_PATTERN)
    tool: str
    args: Mapping[str, Any]

    def bindings(self) -> dict[str, Binding]:
        """The step's bound arguments (argument → binding); validation made sure they parse."""
        return {name: Binding.model_validate(value) for name, value in self.args.items()
                if isinstance(value, Mapping) and "from_step" in value}

    def sources(self) -> set[str]:
        """The steps this one takes a value from (the selected task is not a step)."""
        return {b.from_step for b in self.bindings().values() if b.from_step and b.from_step != SELECTED}


class Plan(BaseModel):
    """The steps in the order they run. A plan is checked by plan_validate before anyone sees it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    steps: tuple[PlanStep, ...]

    def __iter__(self) -> Iterator[PlanStep]:  # type: ignore[override]
        return iter(self.steps)

    def ids(self) -> list[str]:
        return [s.id for s in self.steps]

    def without(self, dropped: set[str]) -> Plan:
        """Drop the named steps and, transitively, every step bound to a dropped one."""
        gone = set(dropped)
        for step in self.steps:  # steps bind only to earlier steps, so one pass in order suffices
            if step.sources() & gone:
                gone.add(step.id)
        return Plan(steps=tuple(s for s in self.steps if s.id not in gone))

    def as_data(self) -> list[dict[str, Any]]:
        """The steps as plain JSON values, for the checkpointed state."""
        return [{"id": s.id, "tool": s.tool, "args": dict(s.args)} for s in self.steps]

    @classmethod
    def from_data(cls, steps: list[dict[str, Any]]) -> Plan:
        return cls(steps=tuple(PlanStep.model_validate(s) for s in steps))
