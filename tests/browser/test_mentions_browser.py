"""References in the composer in a real Chromium: "#" and a few letters list the user's own tasks and projects
(never another user's), the keys pick one and the message carries its key or name."""
from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from projects.models import Project
from tasks.services import task_create

from .shell import assert_accessible, open_assistant, shot
from .test_pages_browser import log_in

pytestmark = pytest.mark.browser


def test_hash_lists_my_tasks_and_projects_and_inserts_the_pick(page: Page, live_server: Any, width: str,
                                                              alice: User, bob: User, website: Project,
                                                              platform: Project) -> None:
    mine = task_create(actor=alice, project=website, title="Fix the login page")
    task_create(actor=bob, project=platform, title="Login service for the platform")  # not alice's project
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    box, options = page.locator("#assistant-message"), page.locator("#assistant-mentions [role=option]")
    box.press_sequentially("tell me about #logi")
    expect(options).to_have_count(1)
    expect(options).to_have_text(f"task {mine.key} Fix the login page")
    expect(options.first).to_have_attribute("aria-selected", "true")
    expect(box).to_have_attribute("aria-activedescendant", "mention-1")
    shot(page, f"mentions-{width}")
    assert_accessible(page)
    box.press("Enter")  # picks; does not send
    expect(box).to_have_value(f"tell me about {mine.key} ")
    expect(page.locator("#assistant-mentions")).to_be_hidden()
    expect(page.locator("#assistant-transcript .run")).to_have_count(0)

    box.press_sequentially("in #web")
    expect(options).to_have_text([f"project {website.key} {website.name}"])
    options.first.click()
    expect(box).to_have_value(f"tell me about {mine.key} in {website.name} ")
    expect(box).to_be_focused()

    box.press_sequentially("#platform")
    expect(page.locator("#assistant-mentions .mention-none")).to_have_text("No task or project of yours matches.")
    box.press("Escape")  # closes the list, not the drawer
    expect(page.locator("#assistant-mentions")).to_be_hidden()
    expect(page.locator("#assistant")).to_be_visible()


def test_a_key_begun_after_hash_offers_the_tasks_it_may_be(page: Page, live_server: Any, width: str,
                                                           alice: User, website: Project) -> None:
    """"#WEB-" lists the project's tasks and "#WEB-2" the tasks whose number begins with 2 (both found none)."""
    tasks = [task_create(actor=alice, project=website, title=f"Step {n}") for n in range(1, 4)]
    log_in(page, live_server.url, "alice")
    open_assistant(page)
    box, options = page.locator("#assistant-message"), page.locator("#assistant-mentions [role=option]")
    box.press_sequentially(f"#{website.key}-")
    expect(options).to_have_text([f"project {website.key} {website.name}",
                                  *(f"task {t.key} {t.title}" for t in tasks)])
    box.press_sequentially(str(tasks[1].pk))  # the number begun: the task with it whole comes first
    expect(options.first).to_have_text(f"task {tasks[1].key} {tasks[1].title}")
    expect(options).not_to_have_text(["No task or project of yours matches."])
    shot(page, f"mentions-partial-key-{width}")
    assert_accessible(page)
    box.press("Enter")
    expect(box).to_have_value(f"{tasks[1].key} ")
