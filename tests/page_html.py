"""HTML helpers and fixture data shared by the page tests."""
from __future__ import annotations

import json
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from projects.models import Project
from tasks.models import Task
from tasks.services import task_create

HTMX = {"HX-Request": "true"}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def page_context(response: Any) -> dict[str, str | None]:
    """Return the attributes of the one #page-context element of a page."""
    found = [attrs for _, attrs in tags(response.content.decode()) if attrs.get("id") == "page-context"]
    assert len(found) == 1, f"expected one #page-context, found {len(found)}"
    return found[0]


def ctx_json(response: Any, name: str) -> Any:
    return json.loads(page_context(response)[name] or "null")


def row_ids(response: Any) -> list[int]:
    """Return the task ids of the task entries (table rows, cards, bars) in page order."""
    return [int(a["data-entity-id"] or 0) for _, a in tags(response.content.decode())
            if a.get("data-entity-type") == "task" and a.get("data-entity-id")]


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def make_page_tasks(*, website: Project, mobile: Project, platform: Project, alice: User, bob: User,
                    carol: User) -> dict[str, Task]:
    """Create a few tasks: three in Website Redesign, one in Mobile App, one alice cannot see."""
    today = timezone.localdate()
    return {
        "design": task_create(actor=alice, project=website, title="Design homepage", assignee=alice,
                              priority="P1", start_date=today - timedelta(days=3), due_date=today + timedelta(days=4),
                              labels=["design"]),
        "late": task_create(actor=alice, project=website, title="Fix login bug", assignee=carol, status="in_progress",
                            priority="P0", due_date=today - timedelta(days=2)),
        "done": task_create(actor=alice, project=website, title="Write copy", status="done"),
        "app": task_create(actor=alice, project=mobile, title="Offline sync", assignee=alice, priority="P2",
                           due_date=today + timedelta(days=1)),
        "secret": task_create(actor=bob, project=platform, title="Nightly ETL", assignee=carol),
    }
