"""Every capability, collected from its folder: agent/capabilities/<name>/spec.py declares it once.

A capability's folder holds everything it is: its spec (name, router line, label, whether it
writes and its quick-action buttons), its phrases (phrases.py: the words the deterministic reader
knows it by), its node, its tools, its prompts and its tests. This module defines the declaration
types and collects the specs and phrases, so the router's
Literal and JSON schema, the router prompt's list, the offline rules, the graph's node table, the
quick-action table (agent/routing/quick_actions.py), help and the generated docs all derive from
the folders. It imports nothing of the agent: the specs are found on disk and imported by name,
and a spec imports only this module and the app's vocabulary (an import contract keeps it so).

To add a capability: add a folder with a spec.py, a node.py and (to be read offline) a phrases.py;
nothing else lists capabilities.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from pm_assistant.vocabulary import Page, Status

CAPABILITIES_PACKAGE = "agent.capabilities"


def never(slots: Any) -> bool:
    return False


def always(slots: Any) -> bool:
    return True


@dataclass(frozen=True)
class QuickActionSpec:
    """One button: the pages that show it, its action and label, and the route's slots (as router JSON)."""

    action: str
    label: str
    pages: tuple[Page, ...]
    slots: Mapping[str, Any] = field(default_factory=dict)
    # A row button: each task row of the pages carries it, with its task as the selection.
    rows: bool = False
    # The task status in which the button makes no sense (a row's Done on a done task): not shown.
    hidden_for_status: Status | None = None
    # A row button's accessible name, with the row's task title in place of {title}.
    row_name: str = ""
    # Shown after the page's other buttons (a delete goes last), else in the registry's order.
    last: bool = False


@dataclass(frozen=True)
class Phrases:
    """A capability's words for the deterministic reader (agent/reading/), declared in its folder's phrases.py.

    Each is a mapping from a word class to phrases, English in lower case with words separated by
    spaces, Chinese as written. The reader knows these classes:
    - "topic": what a capability that only reads is about ("weekly report", "周报"): a message that
      holds one asks for it, the rest read as the reader's own words (questions, courtesy, a week,
      a project) or named as unread; "greeting": the same, but only as the whole message ("hello").
    - "verb": a write on one task, in the imperative ("break down", "拆解"), and "after": what may
      follow the task ("down", "into subtasks", "一下"); "into": what names the write wherever it stands
      ("into subtasks"), for a change pieced together from a message no rule reads (reading/gather.py).
    crud declares the classes of its grammar rules ("mark", "set", "delete", "create", ...).
    ``slots`` are the router slots a topic or verb sets.
    """

    en: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    zh: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    slots: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CapabilitySpec:
    name: str
    # One line in the router prompt: what the capability does and which slots it reads.
    description: str
    # How users see it named ("The weekly report is not available yet").
    label: str
    # Whether the capability may change data (docs, and the intent check on model-routed writes).
    writes: bool
    # Where it stands in every derived list (the router prompt, the offline rules, help, the buttons).
    order: int
    # "module:function" of the graph node: by default the folder's node.py, function named after the
    # capability; None while the capability is routed but not built.
    node: str | None = ""
    # A request a user may type for it, as help shows it ("" for capabilities help does not offer), and
    # the same in Chinese with the capability's name, for help asked in Chinese (both or neither).
    # "{project}" in an example stands for one of the user's own projects (example_for).
    example: str = ""
    example_zh: str = ""
    label_zh: str = ""
    # Whether a run with these slots may pause (an approval card, a background hand-off) and so must
    # be checkpointed to resume; a run that cannot pause is served without a checkpointer.
    may_interrupt: Callable[[Any], bool] = always
    # For a capability that writes: the kind of write a route's slots ask for, in words (None: these
    # slots write nothing). The intent check compares the model's kind with the offline rules' kind.
    # Unset, every route of a writing capability is one kind, named after it.
    kind_of_write: Callable[[Any], str | None] | None = None
    # The quick-action buttons that route to this capability.
    quick_actions: tuple[QuickActionSpec, ...] = ()
    # For a capability that stores large results apart: how many inspection rounds (outline, search,
    # context, head, tail) its model may ask for before it answers; a request past them is dropped.
    inspection_rounds: int = 0

    @property
    def node_path(self) -> str | None:
        """The node's "module:function", the folder's node.py by default."""
        return f"{CAPABILITIES_PACKAGE}.{self.name}.node:{self.name}" if self.node == "" else self.node

    def write_kind(self, slots: Any) -> str | None:
        """The kind of write these slots ask for; None when they write nothing."""
        if not self.writes:
            return None
        return self.name if self.kind_of_write is None else self.kind_of_write(slots)

    def example_for(self, *, chinese: bool, project: str | None) -> str | None:
        """The typed example in Chinese or English, naming the user's own project where it names one; None
        when it names a project and the user has none (help never shows another user's project)."""
        text = self.example_zh if chinese else self.example
        if "{project}" not in text:
            return text
        return None if project is None else text.replace("{project}", project)


def capability_folders() -> list[str]:
    """The names of the folders under agent/capabilities/ that declare a capability (a spec.py)."""
    root = Path(__file__).resolve().parent / "capabilities"
    return sorted(info.name for info in pkgutil.iter_modules([str(root)])
                  if info.ispkg and (root / info.name / "spec.py").is_file())


def _collect() -> tuple[CapabilitySpec, ...]:
    specs = []
    for folder in capability_folders():
        spec = importlib.import_module(f"{CAPABILITIES_PACKAGE}.{folder}.spec").SPEC
        assert isinstance(spec, CapabilitySpec), f"{folder}/spec.py: SPEC is a CapabilitySpec"
        assert spec.name == folder, f"{folder}/spec.py declares {spec.name!r}: a capability is named after its folder"
        assert bool(spec.example) == bool(spec.example_zh) == bool(spec.label_zh), \
            f"{folder}/spec.py: an example in English needs its Chinese example and label (and none, none)"
        specs.append(spec)
    return tuple(sorted(specs, key=lambda spec: (spec.order, spec.name)))


CAPABILITIES: tuple[CapabilitySpec, ...] = _collect()
# What help offers in words, besides the page's quick actions: every capability with an example.
HELP_EXAMPLES: tuple[CapabilitySpec, ...] = tuple(spec for spec in CAPABILITIES if spec.example)
BY_NAME: Mapping[str, CapabilitySpec] = MappingProxyType({spec.name: spec for spec in CAPABILITIES})
NAMES: tuple[str, ...] = tuple(BY_NAME)
assert "clarify" in BY_NAME, "the router falls back to clarify: agent/capabilities/clarify/ declares it"

if TYPE_CHECKING:
    CapabilityName = str
else:
    # A Literal built from the table: pydantic validates and documents it like a written-out one.
    CapabilityName = Literal[NAMES]


def _collect_phrases() -> Mapping[str, Phrases]:
    """Each capability's words for the reader, from its folder's phrases.py (a folder without one has none)."""
    root = Path(__file__).resolve().parent / "capabilities"
    found = {}
    for spec in CAPABILITIES:
        if (root / spec.name / "phrases.py").is_file():
            phrases = importlib.import_module(f"{CAPABILITIES_PACKAGE}.{spec.name}.phrases").PHRASES
            assert isinstance(phrases, Phrases), f"{spec.name}/phrases.py: PHRASES is a Phrases"
            found[spec.name] = phrases
    return MappingProxyType(found)


# The reader's lexicon combines these with its own words (agent/reading/lexicon.py).
PHRASES: Mapping[str, Phrases] = _collect_phrases()


def router_capability_lines(specs: tuple[CapabilitySpec, ...] = CAPABILITIES) -> str:
    """The router prompt's list of capabilities, one line each."""
    return "\n".join(f"- {spec.name}: {spec.description}" for spec in specs)
