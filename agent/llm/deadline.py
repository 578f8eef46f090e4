"""A wall-clock deadline: what is left of a run's or a call's time budget."""
from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Deadline:
    """A point on the monotonic clock; `remaining()` never goes below zero."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    @property
    def expires_at(self) -> float:
        return self.started + self.seconds

    def remaining(self) -> float:
        return max(0.0, self.expires_at - time.monotonic())

    def within(self, seconds: float) -> Deadline:
        """A deadline `seconds` from now, but never later than this one."""
        return Deadline(min(seconds, self.remaining()))
