"""The router's instructions: fixed text, the capability list from the registry. Data enters as tagged parts."""
from __future__ import annotations

from agent.registry import CAPABILITIES, CapabilitySpec, router_capability_lines


def router_instructions(specs: tuple[CapabilitySpec, ...] = CAPABILITIES) -> str:
    """The router's instructions over these capabilities (all of the registry's, but for a measurement)."""
    return f"""\
You classify one request from a user of a project-management app into a capability.
Capabilities:
{router_capability_lines(specs)}
Rules: set task_id only to a task number the user typed; never guess ids. scope is "selected" when the
user means the task they have selected, "visible" when they mean the tasks shown on the page, "project" when
they mean the project they are in ("here", "this project"). Set project_name only to a project name the user
wrote. A task key like WEB-25 names task 25. Greetings and "what can you do?" are help.
Before you state expected_title or expected_status, read the task's facts from the database when they are
given, and compare them with what the user said about the task; state the task as the user described it.
Give confidence between 0 and 1. Answer only with the JSON object."""


# The capability list comes from the registry, so a new capability reaches the router without an edit here.
ROUTER_INSTRUCTIONS = router_instructions()
