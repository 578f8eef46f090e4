"""Keyset pages of the task list, the task API and the project page: every task once when walking,
links that say where they go, the same statements on the first and the last page, bad cursors named."""
from __future__ import annotations

import base64
import html
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from pm_assistant.vocabulary import PAGE_NUMBER_MAX, PAGE_SIZE_DEFAULT
from projects.models import Project
from projects.services import project_create
from tasks.models import Task
from tasks.paging import LAST, Cursor, cursor_decode
from tasks.selectors import task_list_for_user
from tests.clients import api_client

# 8 tasks share each due date and one in 7 has none: pages end in the middle of ties and of the undated.
COUNT = 97


@pytest.fixture
def many(alice: User, website: Project, mobile: Project, platform: Project) -> list[int]:
    """COUNT tasks of alice's across her projects, and some of another project between them."""
    today = timezone.localdate()
    rows = [Task(project=(website, mobile)[i % 2], title=f"Task {i}", created_by=alice,
                 due_date=None if i % 7 == 3 else today + timedelta(days=i // 8)) for i in range(COUNT)]
    rows += [Task(project=platform, title=f"Not hers {i}", due_date=today + timedelta(days=i)) for i in range(12)]
    Task.objects.bulk_create(rows)
    return list(task_list_for_user(user=alice).values_list("pk", flat=True))


def _browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _link(text: str, rel: str, path: str = "/tasks/") -> str | None:
    """The pager's link of that rel, as the browser resolves it (the links are "?query" of this page)."""
    found = re.search(rf'rel="{rel}" href="([^"]+)"', text)
    return path + html.unescape(found.group(1)) if found else None


def _row_ids(text: str) -> list[int]:
    return [int(i) for i in re.findall(r'<tr[^>]*data-entity-id="(\d+)"', text)]


def _walk_api(client: Any, url: str, direction: str) -> list[int]:
    seen: list[int] = []
    while url:
        body = client.get(url).json()
        ids = [t["id"] for t in body["results"]]
        seen = seen + ids if direction == "next" else ids + seen
        url = body[direction]
    return seen


def test_walking_the_api_forward_and_back_shows_every_task_once_in_order(alice: User, many: list[int]) -> None:
    client = api_client(alice)
    forward = _walk_api(client, "/api/tasks/?page_size=10", "next")
    assert forward == many and len(forward) == COUNT
    last = client.get("/api/tasks/?page_size=10").json()["last"]
    assert _walk_api(client, last, "previous") == many


def test_walking_the_task_list_by_next_shows_every_task_once(alice: User, many: list[int]) -> None:
    client, url, seen, pages = _browser(alice), "/tasks/?page_size=10", [], 0
    while url:
        text = client.get(url).content.decode()
        seen += _row_ids(text)
        url, pages = _link(text, "next"), pages + 1
    assert seen == many and pages == 10


def test_the_last_page_holds_what_the_numbered_pages_leave_and_knows_its_number(alice: User,
                                                                                many: list[int]) -> None:
    client = _browser(alice)
    first = client.get("/tasks/?page_size=5").content.decode()
    assert _link(first, "prev") is None
    last = client.get(_link(first, "last") or "").content.decode()
    assert _row_ids(last) == many[95:]
    assert f"Showing 96–{COUNT} of {COUNT} tasks" in last
    assert '<span class="page-link is-current" aria-current="page">20</span>' in last
    assert _link(last, "next") is None and _link(last, "last") is None
    previous = client.get(_link(last, "prev") or "").content.decode()
    assert _row_ids(previous) == many[90:95] and "Showing 91–95" in previous
    assert '<span class="page-link is-current" aria-current="page">19</span>' in previous


def test_page_numbers_stop_at_the_limit_and_later_pages_are_cursor_links(alice: User, many: list[int]) -> None:
    text = _browser(alice).get("/tasks/?page_size=5").content.decode()
    numbers = [int(n) for n in re.findall(r"[?&](?:amp;)?page=(\d+)", text)]
    assert max(numbers) == PAGE_NUMBER_MAX
    assert f'aria-label="Last page, {-(-COUNT // 5)}"' in text and "cursor=" in (_link(text, "next") or "")


def _statements(client: Any, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_the_last_page_costs_the_statements_of_the_first_and_never_an_offset(alice: User,
                                                                            many: list[int]) -> None:
    browser, api = _browser(alice), api_client(alice)
    _statements(browser, "/tasks/")  # warm: the session and the like
    for client, first in ((browser, "/tasks/?page_size=10"), (api, "/api/tasks/?page_size=10")):
        last = f"{first}&cursor={LAST}"
        middle = client.get(f"{first}&page=2").content.decode() if client is browser else ""
        deep = _link(middle, "next") if middle else client.get(f"{first}&page=2").json()["next"]
        one, other, inner = _statements(client, first), _statements(client, last), _statements(client, deep)
        assert len(one) == len(other) == len(inner), "\n".join(other)
        assert not any("OFFSET" in sql for sql in other + inner), "\n".join(other + inner)


def test_the_task_list_costs_the_same_statements_for_two_projects_or_eight(alice: User, many: list[int]) -> None:
    """Its length comes from the task counters (no COUNT over the tasks) and its people from one query."""
    browser = _browser(alice)
    _statements(browser, "/tasks/")
    two = _statements(browser, "/tasks/")
    for i in range(6):
        project_create(owner=alice, name=f"More {i}", key=f"MORE{i}")
    eight = _statements(browser, "/tasks/")
    assert len(two) == len(eight), "\n".join(eight)
    assert not [sql for sql in eight if "COUNT(" in sql and '"tasks_task"' in sql], "\n".join(eight)
    assert f"Showing 1–25 of {COUNT} tasks" in browser.get("/tasks/").content.decode()


@pytest.mark.parametrize("raw", [
    "nonsense", "%%%", "x" * 101,
    base64.urlsafe_b64encode(b"a|2026-13-01|5|0").decode(),   # no such date
    base64.urlsafe_b64encode(b"a|2026-01-01|0|0").decode(),   # no such task id
    base64.urlsafe_b64encode(b"a|2026-01-01|5|-1").decode(),  # a negative start
    base64.urlsafe_b64encode(b"z|2026-01-01|5|0").decode(),   # no such direction
    base64.urlsafe_b64encode(b"l|2026-01-01||0").decode(),    # the last page has no position
    base64.urlsafe_b64encode("a|２０２６-01-01|5|0".encode()).decode(),
])
def test_a_malformed_cursor_is_a_400_naming_it_in_the_api_and_on_the_page(alice: User, many: list[int],
                                                                          raw: str) -> None:
    answer = api_client(alice).get("/api/tasks/", {"cursor": raw})
    assert answer.status_code == 400 and list(answer.json()["error"]["fields"]) == ["cursor"], answer.content
    page = _browser(alice).get("/tasks/", {"cursor": raw})
    assert page.status_code == 400
    assert "<code>cursor</code>" in page.content.decode() and "not a cursor of this list" in page.content.decode()


def test_cursors_read_back_as_written() -> None:
    cursor = Cursor("before", timezone.localdate(), 42, 75)
    assert cursor_decode(str(cursor)) == cursor and cursor_decode(str(LAST)) == LAST


def test_a_cursor_pages_only_through_the_users_own_tasks(alice: User, bob: User, many: list[int]) -> None:
    # Bob's platform tasks share due dates with alice's: a cursor of alice's shows him only his own.
    body = api_client(alice).get("/api/tasks/?page_size=10").json()
    theirs = api_client(bob).get(body["next"]).json()
    assert theirs["results"] and {t["project"]["key"] for t in theirs["results"]} == {"DATA"}


def test_the_project_page_pages_its_list_and_counts_every_task(alice: User, website: Project,
                                                               many: list[int]) -> None:
    client = _browser(alice)
    in_project = list(task_list_for_user(user=alice).filter(project=website).values_list("pk", flat=True))
    url, seen = f"/projects/{website.pk}/", []
    first = client.get(url).content.decode()
    assert f'<span class="stat-num">{len(in_project)}</span><span class="stat-label">Tasks</span>' in first
    while url:
        text = client.get(url).content.decode()
        ids = _row_ids(text)
        assert len(ids) <= PAGE_SIZE_DEFAULT
        seen += ids
        url = _link(text, "next", f"/projects/{website.pk}/")
    assert seen == in_project
    bad = client.get(f"/projects/{website.pk}/", {"cursor": "nonsense"})
    assert bad.status_code == 400 and "cursor: " in bad.content.decode()


def test_a_cursor_claiming_a_start_past_the_list_shows_where_the_page_really_can_be(alice: User,
                                                                                  many: list[int]) -> None:
    first = api_client(alice).get("/api/tasks/?page_size=10").json()
    real = cursor_decode(first["next"].split("cursor=")[1].split("&")[0])
    tampered = Cursor(real.direction, real.key, real.task_id, 10**9)
    text = _browser(alice).get(f"/tasks/?page_size=10&cursor={tampered}").content.decode()
    assert _row_ids(text) == many[10:20] and f"of {COUNT} tasks" in text and "Showing 88–97" in text
