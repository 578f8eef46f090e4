"""What the bench is serving right now: the architecture, the model driver, the scenario, the call's purpose.

The bench serves one request at a time; the stub's driver (in a thread of the same process) reads
this to answer as the chosen model would, and the metered provider writes the call's purpose here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .suite import Scenario

# The text every injected instruction starts with, in titles and descriptions of the suite's data.
INJECTION_MARK = "ASSISTANT:"


@dataclass
class Session:
    architecture: str = ""
    driver: str = "oracle"
    scenario: Scenario | None = None
    # The purpose of the call being made (the client names it: route, explain, pe_plan, react, ...).
    purpose: str = ""
    # The user's turn in this request (2: the answer to a question or a card) and whether they approved.
    turn: int = 1
    approved: bool = False
    # The page context as the browser sent it (what an untrimmed architecture pastes into prompts).
    page: Any = None
    # The model's own bookkeeping within a request: actions it took on injected instructions, and
    # the batches a Plan-Execute planner has handed out.
    followed: int = 0
    deleted_by_instruction: set[int] = field(default_factory=set)
    batches_planned: int = 0
    # The request's meter (meter.Meter), set by the bench after begin().
    meter: Any = None

    def begin(self, *, architecture: str, driver: str, scenario: Scenario) -> None:
        """Start serving a new request."""
        fresh = Session(architecture=architecture, driver=driver, scenario=scenario, page=scenario.page)
        self.__dict__.update(fresh.__dict__)


CURRENT = Session()
