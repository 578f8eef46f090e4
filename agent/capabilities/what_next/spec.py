"""what_next: the user's open tasks ranked by a stated score (reports.next_up), the first five with their reasons."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec, never

SPEC = CapabilitySpec(
    "what_next", "recommend which of the user's own open tasks to work on next, ranked by a fixed score.",
    "What to work on next", writes=False, order=35,
    example="what should I work on next?", example_zh="我接下来做什么？", label_zh="接下来做什么",
    # Read only: a run of it never pauses for an approval, so it is served without a checkpointer.
    may_interrupt=never,
    quick_actions=(QuickActionSpec("what_next", "What next", ("home",)),))
