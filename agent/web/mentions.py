"""References in the composer: the user's tasks and projects that a typed "#..." may name, to insert as the
words the assistant reads (a task's key such as WEB-42, a project's name)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import User
from django.db.models import CharField, Q
from django.db.models.functions import Cast, Length

from pm_assistant.vocabulary import ID_MAX
from projects.selectors import project_list_for_user
from tasks.selectors import task_list_for_user

MENTIONS_SHOWN = 8
# What may follow "#": a task number, a key ("WEB-42", "web-4") or words of a title or a project's name.
MENTION_MAX_CHARS = 60
# A key or the start of one: "WEB-42", "web42", "42", "WEB-4" (WEB-4, WEB-40...), "WEB-" (every WEB task).
_KEY = re.compile(r"^(?:(?P<project>[A-Za-z][A-Za-z0-9]{0,9}?)(?P<dash>-)?)?(?P<number>\d{0,19})$")


@dataclass(frozen=True)
class Mention:
    kind: Literal["task", "project"]
    key: str
    name: str

    @property
    def insert(self) -> str:
        """The words put in the message: a task's key, a project's name (what the router reads)."""
        return self.key if self.kind == "task" else self.name


def mentions_for_user(*, user: User, typed: str) -> list[Mention]:
    """The user's projects, then tasks, whose key, number or name matches what follows "#" (all when empty)."""
    text = typed.strip()
    key = _KEY.match(text)
    # A key being typed: its number, whole or begun, or a project's key and its dash.
    keyed = key is not None and bool(key.group("number") or key.group("dash"))
    projects = project_list_for_user(user=user)
    if text:
        projects = projects.filter(Q(name__icontains=text) | Q(key__istartswith=text.rstrip("-")))
    found = [Mention("project", p.key, p.name) for p in projects.order_by("name")[:MENTIONS_SHOWN]]
    tasks = task_list_for_user(user=user)
    if key is not None and keyed and (not key.group("number") or int(key.group("number")) <= ID_MAX):
        by_key = Q()
        if key.group("number"):
            # The number as typed so far: "WEB-4" offers WEB-4 first, then WEB-40, WEB-41...
            tasks = tasks.annotate(number=Cast("id", CharField()))
            by_key &= Q(number__startswith=key.group("number"))
        if key.group("project"):
            by_key &= Q(project__key__iexact=key.group("project"))
        tasks = tasks.filter(by_key | Q(title__icontains=text))
        if key.group("number"):
            tasks = tasks.order_by(Length("number"), "id")
    elif text:
        tasks = tasks.filter(title__icontains=text)
    room = MENTIONS_SHOWN - len(found)
    found += [Mention("task", t.key, t.title) for t in tasks[:room]] if room > 0 else []
    return found
