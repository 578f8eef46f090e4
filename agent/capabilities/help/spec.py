"""help: a greeting or "what can you do?" is answered with what works on this page."""
from __future__ import annotations

from agent.registry import CapabilitySpec, never

SPEC = CapabilitySpec(
    "help", 'the user greets you or asks what you can do ("help", "hello", "what can you do?").', "Help",
    writes=False, order=60, node="agent.capabilities.help.node:page_help", may_interrupt=never)
