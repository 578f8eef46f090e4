"""what_next: the user's open tasks ranked by a stated score (reports.next_up), the first five with their reasons."""
from __future__ import annotations

from agent.registry import CapabilitySpec, QuickActionSpec, never

SPEC = CapabilitySpec(
    "what_next", "recommend which of the user's own open tasks to work on next, ranked by a fixed score.",
    "What to work on next", writes=False, order=35,
    # Read before the reports' and the task finder's rules: "what should I work on next" is about tasks too.
    keywords=(r"what (?:should|do|can|shall) i (?:work on|do|tackle|pick up|start)(?: next| now| first)?",
              r"work on next", r"do next", r"what next", r"what's next", r"my next task", r"prioriti[sz]e my tasks",
              "接下来做什么", "接下来干什么", "接下来该做", "下一步做什么", "先做哪个", "先做什么", "该做什么"),
    # "work on next" is no project named "next": offline, the page's project or all the user's are ranked.
    keyword_slots={"project_name": None},
    example="what should I work on next?", example_zh="我接下来做什么？", label_zh="接下来做什么",
    may_interrupt=never,
    quick_actions=(QuickActionSpec("what_next", "What next", ("home",)),))
