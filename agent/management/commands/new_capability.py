"""Write a new read-only capability folder with one quick button, then regenerate the documents.

    manage.py new_capability standup --page task_list --button "Standup list" --label-zh 站会清单

The folder (agent/capabilities/<name>/) is the whole capability: spec, node, tools, prompts, its phrases
for the deterministic reader (phrases.py) and its tests in English and Chinese. It works and passes the suite
as written; the registry finds it, and the router prompt, the route schema, the graph, the buttons, help
and the generated tables pick it up. Edit the tool's filters and the words to make it answer what its
label says. The templates are agent/management/capability_template/*.py-tpl.
"""
from __future__ import annotations

import keyword
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path
from string import Template
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agent.registry import BY_NAME, CAPABILITIES
from pm_assistant.vocabulary import PAGES

TEMPLATES = Path(__file__).resolve().parents[1] / "capability_template"
_NAME = re.compile(r"^[a-z][a-z0-9_]{1,39}$")
# Where a new capability stands in the derived lists (router prompt, help, buttons): after the others,
# before clarify, the fallback that comes last. Capabilities of one order are listed by name.
ORDER = 80


def _python(text: str) -> str:
    """A string as a Python literal in double quotes (ruff's style)."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        literal = '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal


def _tuple(texts: Iterable[str]) -> str:
    """Strings as a Python tuple literal."""
    literals = [_python(text) for text in texts]
    return "(" + ", ".join(literals) + ("," if len(literals) == 1 else "") + ")"


def _wrapped(text: str, indent: int) -> str:
    """A long string as adjacent literals in parentheses, each line within 100 characters."""
    chunks = textwrap.wrap(text, 100 - indent, drop_whitespace=False)
    if len(chunks) == 1:
        return _python(text)
    return "(" + f"\n{' ' * (indent + 1)}".join(_python(chunk) for chunk in chunks) + ")"


def capability_values(name: str, *, page: str, button: str, label_zh: str, example: str, example_zh: str,
                      topics: list[str], topics_zh: list[str], description: str) -> dict[str, str]:
    """The values the templates are filled with, checked: a bad name or page is an error naming it."""
    if not _NAME.match(name) or keyword.iskeyword(name):
        raise CommandError(f"name: {name!r} must be a lower-case Python identifier of 2 to 40 characters.")
    if name in BY_NAME or (Path(settings.BASE_DIR) / "agent" / "capabilities" / name).exists():
        raise CommandError(f"name: agent/capabilities/{name}/ exists already.")
    if page not in PAGES:
        raise CommandError(f"--page: {page!r} is not a page; one of {', '.join(PAGES)}.")
    if not button.strip():
        raise CommandError("--button: the button needs a label.")
    taken = {action for spec in CAPABILITIES for quick in spec.quick_actions for action in (quick.action,)}
    if name in taken:
        raise CommandError(f"name: {name!r} is the action of an existing button; choose another name.")
    label_zh = label_zh or f"新功能（{name}）"
    example = example or f"show {button.lower()}"
    example_zh = example_zh or f"显示{label_zh}"
    topics = topics or [button.lower()]
    topics_zh = topics_zh or [label_zh]
    description = description or f"{button.lower()}: open tasks, of all projects or one (project_name)."
    return {
        "name": name, "Name": "".join(part.capitalize() for part in name.split("_")), "tool": f"{name}_tasks",
        "order": str(ORDER), "label": button, "page_repr": _python(page), "label_repr": _python(button),
        "label_zh_repr": _python(label_zh), "example_repr": _python(example), "example_zh_repr": _python(example_zh),
        "topics_en": _tuple(topic.lower() for topic in topics), "topics_zh": _tuple(topics_zh),
        "description": _wrapped(description, 4),
    }


def capability_write(root: Path, values: dict[str, str]) -> list[Path]:
    """Write the folder from the templates; return the files written."""
    folder = root / "agent" / "capabilities" / values["name"]
    written = []
    for template in sorted(TEMPLATES.rglob("*.py-tpl")):
        relative = template.relative_to(TEMPLATES).with_suffix(".py")
        if relative.name == "test_capability.py":
            relative = relative.with_name(f"test_{values['name']}.py")
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(Template(template.read_text(encoding="utf-8")).substitute(values), encoding="utf-8")
        written.append(target)
    return written


class Command(BaseCommand):
    help = "Write a read-only capability folder with one quick button and regenerate the docs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="The capability's name: its folder, node function and button action.")
        parser.add_argument("--page", required=True, choices=PAGES, help="The page whose sidebar shows the button.")
        parser.add_argument("--button", required=True,
                            help="The button's label, and the capability's name as users see it.")
        parser.add_argument("--label-zh", default="", help="Its name in Chinese (help asked in Chinese shows it).")
        parser.add_argument("--example", default="", help="A request help offers to type (default: 'show <label>').")
        parser.add_argument("--example-zh", default="", help="The same request in Chinese.")
        parser.add_argument("--topic", action="append", default=[],
                            help="An English phrase the deterministic reader routes to it (phrases.py); repeat for "
                                 "more. Default: the label.")
        parser.add_argument("--topic-zh", action="append", default=[],
                            help="A Chinese phrase the reader routes to it; repeat for more. "
                                 "Default: the Chinese label.")
        parser.add_argument("--description", default="", help="Its line in the router prompt.")
        parser.add_argument("--no-docs", action="store_true",
                            help="Do not regenerate docs/ARCHITECTURE.md and docs/USAGE.md.")

    def handle(self, *args: Any, **options: Any) -> None:
        values = capability_values(
            options["name"], page=options["page"], button=options["button"], label_zh=options["label_zh"],
            example=options["example"], example_zh=options["example_zh"], topics=options["topic"],
            topics_zh=options["topic_zh"], description=options["description"])
        root = Path(settings.BASE_DIR)
        for path in capability_write(root, values):
            self.stdout.write(f"Wrote {path.relative_to(root)}")
        if not options["no_docs"]:
            # The registry collected the capabilities at import: the documents are rendered in a new process.
            command = [sys.executable, str(root / "manage.py"), "architecture_doc"]
            done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)  # noqa: S603
            self.stdout.write(done.stdout.strip())
            if done.returncode:
                raise CommandError(f"architecture_doc failed:\n{done.stderr.strip()}")
        if not options["label_zh"]:
            self.stdout.write("No --label-zh: the Chinese name, example and phrase are placeholders to translate "
                              "in spec.py.")
