"""Replies in the sidebar: model Markdown sanitised, every task and project named linked, rows as pages show them.

The hostile reply comes from the scripted model over real HTTP through the openai SDK; the sidebar
renders it through the same template a user sees.
"""
from __future__ import annotations

import json
import re
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from pm_assistant.markdown import markdown_html
from tasks.models import Task
from tasks.services import task_create
from tests.data_layer.helpers import route_json
from tests.llm_stub import LLMStub

SIDEBAR = "/assistant/request/"
HOSTILE = (
    "Found **one** task: {key}.\n\n<script>alert('x')</script>\n"
    "<img src=x onerror=\"alert(document.domain)\">\n[click me](javascript:alert(document.cookie)) "
    "[data](data:text/html,<b>x</b>) <a href=\"javascript:alert('b')\" onclick=\"alert('c')\">raw</a>\n\n"
    "- see [docs](https://example.com/help)"
)


class _Tags(HTMLParser):
    """Every real element and attribute of an HTML fragment (escaped text is not an element)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))


def assert_inert(html: str) -> None:
    """No script-capable element, no event handler, no link with a script or data scheme."""
    for tag, attrs in _Tags(html).tags:
        assert tag not in {"script", "img", "svg", "iframe", "style", "object", "embed"}, tag
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)
        href = attrs.get("href", "").strip().lower()
        assert not href.startswith(("javascript:", "vbscript:", "data:")), href


def _sidebar(user: Any, message: str, page: dict[str, Any]) -> str:
    client = Client()
    client.force_login(user)
    response = client.post(SIDEBAR, {"message": message, "page_context": json.dumps(page)})
    assert response.status_code == 200, response.content
    return response.content.decode()


def _reply_body(html: str) -> str:
    found = re.search(r'<div class="run-reply" hx-disable>(.*?)</div>', html, re.S)
    assert found, html
    return found.group(1)


@pytest.mark.parametrize("text", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))", "[x](vbscript:msgbox(1))", "<a href='javascript:x'>a</a>",
    "[x](data:text/html;base64,PHNjcmlwdD4=)", "<svg onload=alert(1)>", "<iframe src=//evil>",
])
def test_the_sanitiser_strips_scripts_handlers_and_script_links(text: str) -> None:
    assert_inert(markdown_html(text))


def test_a_hostile_model_reply_renders_as_inert_markdown(alice: Any, website: Any,
                                                         openai_settings: LLMStub) -> None:
    task = task_create(actor=alice, project=website, title="Fix login page")
    openai_settings.push_json(route_json("query", status_filter=["todo"]))
    openai_settings.push_text(HOSTILE.format(key=task.key))
    body = _reply_body(_sidebar(alice, "show todo tasks", {"page": "task_list", "origin": "sidebar"}))
    assert "<strong>one</strong>" in body
    assert f'<a href="/tasks/{task.pk}/" rel="noopener noreferrer nofollow">{task.key}</a>' in body
    # A link the model writes itself is shown as its words: replies link only what the server named.
    assert "example.com" not in body and "see docs" in body
    assert_inert(body)
    assert "&lt;script&gt;" in body  # shown as text, never run


def test_a_list_reply_links_every_task_and_project_and_the_full_list(alice: Any, website: Any,
                                                                     mobile: Any) -> None:
    late = timezone.localdate() - timedelta(days=2)
    tasks = [task_create(actor=alice, project=project, title=f"Late {n}", assignee=alice, due_date=late)
             for project in (website, mobile) for n in range(6)]
    html = _sidebar(alice, "what is overdue for me?", {"page": "home", "origin": "sidebar"})
    row = r'<li><span class="run-item-title"><span class="key">([A-Z]+-\d+)</span> <a href="/tasks/(\d+)/">'
    shown = re.findall(row, html)
    assert len(shown) == 10
    by_id = {t.pk: t for t in tasks}
    assert all(by_id[int(pk)].key == key for key, pk in shown)
    assert html.count('class="due overdue"') == 10
    assert f'href="/projects/{website.pk}/"' in html and f'href="/projects/{mobile.pk}/"' in html
    more = re.search(r'<a href="([^"]+)">Showing 10 of 12</a>', html)
    assert more, html
    assert more.group(1).startswith("/tasks/?") and "assignee=me" in more.group(1)
    # The reply's own words link the tasks they name (the template names the first three).
    body = _reply_body(html)
    named = re.findall(r"[A-Z]+-\d+", re.sub(r"<[^>]+>", "", body))
    assert len(named) == 3
    for key in named:
        pk = next(t.pk for t in tasks if t.key == key)
        assert f'<a href="/tasks/{pk}/" rel="noopener noreferrer nofollow">{key}</a>' in body


def test_the_footer_names_the_model_and_hides_the_route_behind_details(alice: Any, website: Any) -> None:
    task_create(actor=alice, project=website, title="Fix login page", status=Task.Status.BLOCKED)
    html = _sidebar(alice, "show blocked tasks", {"page": "task_list", "origin": "sidebar"})
    footer = re.search(r'<footer class="run-meta">(.*?)</footer>', html, re.S)
    assert footer
    assert re.search(r"Offline model · \d+\.\d s", footer.group(1))
    details = re.search(r"<details class=\"run-details\">(.*?)</details>", footer.group(1), re.S)
    assert details and "tokens" in details.group(1) and "/trace/" in details.group(1)


def test_a_title_that_writes_markdown_is_shown_as_written(alice: Any, website: Any) -> None:
    title = "[Session expired, sign in](https://evil.example) *now* <b>x</b>"
    task = task_create(actor=alice, project=website, title=title, assignee=alice,
                       due_date=timezone.localdate() - timedelta(days=1))
    page = {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk},
            "routeParams": {"taskId": task.pk}}
    body = _reply_body(_sidebar(alice, "what is this task about?", page))
    assert "evil.example" in body and 'href="https://evil.example' not in body
    assert "[Session expired, sign in](https://evil.example) *now* &lt;b&gt;x&lt;/b&gt;" in body
    assert "<em>" not in body
    assert f'<a href="/tasks/{task.pk}/" rel="noopener noreferrer nofollow">{task.key}</a>' in body


@pytest.mark.parametrize("text", ["[x](https://evil.example)", "[x](//evil.example/a)", "<https://evil.example>",
                                  "[x](/admin/)", '[x](https://evil.example "t")'])
def test_only_the_links_the_server_names_survive(text: str) -> None:
    html = markdown_html(f"{text} WEB-1", links={"WEB-1": "/tasks/1/"})
    hrefs = [attrs.get("href") for tag, attrs in _Tags(html).tags if tag == "a"]
    assert hrefs == ["/tasks/1/"], html


def test_a_task_brief_shows_an_assignee_name_as_written(alice: Any, website: Any, openai_settings: LLMStub) -> None:
    alice.username = "__alice__"  # a name Django allows and Markdown would read as bold
    alice.save()
    task = task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    openai_settings.push_json(route_json("query", scope="selected"))
    page = {"page": "task_detail", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk}}
    body = _reply_body(_sidebar(alice, "tell me about this task", page))
    assert "assigned to __alice__." in body and "<strong>" not in body


def test_a_reply_is_rendered_once_and_its_links_are_part_of_what_is_kept() -> None:
    from pm_assistant.markdown import _markdown_html

    text = "Moved WEB-1 to **done** in Website Redesign."
    first = markdown_html(text, links={"WEB-1": "/tasks/1/"})
    hits = _markdown_html.cache_info().hits
    assert markdown_html(text, links={"WEB-1": "/tasks/1/"}) == first
    assert _markdown_html.cache_info().hits == hits + 1
    # The same words with other links (another user's view of other data) are rendered on their own.
    other = markdown_html(text, links={"WEB-1": "/tasks/2/"})
    assert 'href="/tasks/2/"' in other and 'href="/tasks/1/"' in first and "/tasks/2/" not in first
    assert "<a" not in markdown_html(text)


def test_only_the_names_a_reply_mentions_are_looked_up_for_links() -> None:
    from agent.templatetags.assistant_reply import reply_links

    data = {"items": [{"id": n, "key": f"WEB-{n}", "project": "Website Redesign", "project_id": 1}
                      for n in range(1, 11)]}
    assert reply_links(data, "WEB-3 is blocked.") == {"WEB-3": "/tasks/3/"}
    assert reply_links(data, "Ten tasks in Website Redesign.") == {"Website Redesign": "/projects/1/"}
    assert reply_links(data, "Nothing by name.") == {}
