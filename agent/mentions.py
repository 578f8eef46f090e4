"""References in the composer: the user's tasks and projects that a typed "#..." may name, to insert as the
words the assistant reads (a task's key such as WEB-42, a project's name)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import User
from django.db.models import Q

from pm_assistant.vocabulary import ID_MAX
from projects.selectors import project_list_for_user
from tasks.selectors import task_list_for_user

MENTIONS_SHOWN = 8
# What may follow "#": a task number, a key ("WEB-42", "web-4") or words of a title or a project's name.
MENTION_MAX_CHARS = 60
_KEY = re.compile(r"^(?:(?P<project>[A-Za-z][A-Za-z0-9]{0,9})-?)?(?P<number>\d{1,19})$")


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
    projects = project_list_for_user(user=user)
    if text:
        projects = projects.filter(Q(name__icontains=text) | Q(key__istartswith=text))
    found = [Mention("project", p.key, p.name) for p in projects.order_by("name")[:MENTIONS_SHOWN]]
    tasks = task_list_for_user(user=user)
    key = _KEY.match(text)
    if key and int(key.group("number")) <= ID_MAX:
        by_key = Q(pk=int(key.group("number")))
        if key.group("project"):
            by_key &= Q(project__key__iexact=key.group("project"))
        tasks = tasks.filter(by_key | Q(title__icontains=text))
    elif text:
        tasks = tasks.filter(title__icontains=text)
    room = MENTIONS_SHOWN - len(found)
    found += [Mention("task", t.key, t.title) for t in tasks[:room]] if room > 0 else []
    return found
