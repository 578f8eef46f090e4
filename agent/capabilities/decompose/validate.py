"""Check a proposed plan before anyone sees it: registry tools only, ids only as bindings, bounded length."""
from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from jsonpath_ng import parse as jsonpath_parse
from jsonpath_ng.exceptions import JSONPathError
from pydantic import ValidationError

from agent.capabilities.decompose.plan_tools import PLAN_TOOLS, RESULT_FIELDS, TASK_ID_FIELDS, PlanTool
from agent.models import Alert
from agent.tools.binding import Binding

from .plan import SELECTED, STEP_ID_PATTERN, Plan, PlanStep

_ID_NAME = re.compile(r"(^|_)(ids?|task|parent)$")
_STEP_ID = re.compile(STEP_ID_PATTERN)
# A result as its declared fields: task ids are numbers, everything else is not, so a path is
# checked both for leading somewhere and for leading to a task id.
_SAMPLE_RESULT = {name: (1 if name in TASK_ID_FIELDS else f"<{name}>") for name in RESULT_FIELDS}
# A bound id is the task a step made or the selected task: its "id", never another id it names.
_SAMPLE_RESULT["parent_id"] = 2
_PATH_MAX_CHARS = 100
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class Problem:
    """Why a plan was refused: the alert kind that names the rule, the step, and words for the planner."""

    kind: str
    step: str
    message: str


def _has_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    if isinstance(value, Mapping):
        return any(_has_number(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_number(v) for v in value)
    return False


def _literal_ids(step_id: str, tool: PlanTool, args: Mapping[str, Any]) -> list[Problem]:
    """An id-like argument that is not a binding, or a number anywhere, is a typed id."""
    problems = []
    for name, value in args.items():
        bound = name in tool.bound_args
        if bound and isinstance(value, Mapping) and "from_step" in value and not _has_number(value):
            continue
        if bound or _ID_NAME.search(name) or _has_number(value):
            problems.append(Problem(Alert.Kind.LITERAL_ID, step_id,
                                    f"step {step_id} typed a value for {name!r}; ids must be bindings "
                                    '({"from_step": …, "path": "$.id"}), never typed.'))
    return problems


def _binding_problems(step_id: str, name: str, binding: Binding, earlier: Collection[str]) -> list[Problem]:
    if binding.artifact is not None or binding.from_step is None:
        return [Problem(Alert.Kind.BAD_BINDING, step_id, f"step {step_id} binds {name!r} to something other "
                        "than a step; a plan binds to the selected task or an earlier step.")]
    if binding.from_step != SELECTED and binding.from_step not in earlier:
        return [Problem(Alert.Kind.BAD_BINDING, step_id, f"step {step_id} binds {name!r} to step "
                        f"{binding.from_step!r}, which is missing or comes later.")]
    try:
        found = [m.value for m in jsonpath_parse(binding.path).find(_SAMPLE_RESULT)] \
            if len(binding.path) <= _PATH_MAX_CHARS else []
    except (JSONPathError, ValueError, AttributeError, TypeError, RecursionError):  # the parser raises several
        found = []
    if found != [_SAMPLE_RESULT["id"]]:
        return [Problem(Alert.Kind.BINDING_UNRESOLVED, step_id, f"step {step_id} binds {name!r} to "
                        f"{binding.path!r}, which leads to no task id; use \"$.id\".")]
    return []


def _step_problems(raw: Any, index: int, seen: list[str], taken: Collection[str], done: Collection[str],
                   members: Collection[str]) -> list[Problem]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("args"), Mapping):
        return [Problem(Alert.Kind.INVALID_PLAN, f"#{index + 1}", f"step {index + 1} is not a tool with arguments.")]
    step_id = str(raw.get("id", ""))
    if not _STEP_ID.fullmatch(step_id) or step_id in seen or step_id in taken:
        return [Problem(Alert.Kind.INVALID_PLAN, step_id or f"#{index + 1}",
                        f"step {index + 1} needs a new id like s{len(seen) + len(taken) + 1}.")]
    tool = PLAN_TOOLS.get(str(raw.get("tool")))
    if tool is None:
        named = str(raw.get("tool"))[:40]  # the model's own text, echoed back to it: kept short
        return [Problem(Alert.Kind.UNKNOWN_TOOL, step_id, f"step {step_id} names the tool {named!r}, "
                        f"which is not one of {', '.join(PLAN_TOOLS)}.")]
    literal = _literal_ids(step_id, tool, raw["args"])
    if literal:
        return literal
    try:
        args = tool.args.model_validate(raw["args"])
        PlanStep.model_validate(raw)  # the step's own keys (id, tool, args) and nothing else
    except ValidationError as exc:
        fields = ", ".join(sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})) or "its arguments"
        return [Problem(Alert.Kind.INVALID_PLAN, step_id, f"step {step_id} has invalid {fields}.")]
    # A day as the plan card and the tools read it: the parser would also take a time or a timestamp.
    odd_days = sorted(name for name, value in raw["args"].items()
                      if name.endswith("_date") and value is not None
                      and not (isinstance(value, str) and _ISO_DAY.fullmatch(value)))
    if odd_days:
        return [Problem(Alert.Kind.INVALID_PLAN, step_id,
                        f"step {step_id} has invalid {', '.join(odd_days)}: write a day as YYYY-MM-DD.")]
    problems = [p for name in tool.bound_args
                for p in _binding_problems(step_id, name, getattr(args, name), [*done, *seen])]
    assignee = getattr(args, "assignee", None)
    if assignee is not None and assignee not in members:
        problems.append(Problem(Alert.Kind.INVALID_PLAN, step_id,
                                f"step {step_id} assigns {assignee!r}, who is not a member of the project."))
    return problems


def plan_validate(raw: Any, *, max_steps: int, taken: Collection[str] = (), done: Collection[str] = (),
                  members: Collection[str] = ()) -> Plan | list[Problem]:
    """Return the plan when every rule holds, else every problem found.

    ``taken`` are the ids of earlier steps, which a revised remainder may not reuse; ``done`` those
    of them that ran, the only ones it may bind to; ``members`` the usernames it may assign.
    """
    steps = raw.get("steps") if isinstance(raw, Mapping) else None
    if not isinstance(steps, list) or not steps:
        return [Problem(Alert.Kind.INVALID_PLAN, "plan", "the plan must be {\"steps\": [...]} with at least one step.")]
    if len(steps) > max_steps:
        return [Problem(Alert.Kind.PLAN_TOO_LONG, "plan", f"the plan has {len(steps)} steps; at most {max_steps}.")]
    problems: list[Problem] = []
    seen: list[str] = []
    for index, raw_step in enumerate(steps):
        problems += _step_problems(raw_step, index, seen, taken, done, members)
        if isinstance(raw_step, Mapping):
            seen.append(str(raw_step.get("id", "")))
    if problems:
        return problems
    return Plan(steps=tuple(PlanStep.model_validate(s) for s in steps))
