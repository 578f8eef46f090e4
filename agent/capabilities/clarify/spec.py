"""clarify: an unclear message, or a write named but not asked for, is answered with what works here."""
from __future__ import annotations

from agent.registry import CapabilitySpec, never

SPEC = CapabilitySpec(
    "clarify", "the request is unclear or outside these capabilities.", "Asking back", writes=False, order=90,
    may_interrupt=never)
