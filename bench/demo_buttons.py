"""Press every quick button of every page on the demo data, as alice in the browser, then audit the runs.

    python -m bench.demo_buttons        # exit 0 when every button's run ends without error and passes the audit

The second half of CI's audit stage (make audit-runs, bench/audited_runs.py runs it in a process of its
own). On a fresh SQLite database `manage.py seed_demo` loads the demo data; the offline provider stands
in for the model. The buttons come from the quick-action table (agent/routing/quick_actions.py), each
page's sidebar buttons and its row buttons. For each, the page is rendered for alice and its
#page-context element read as static/js/page_context.js reads it; the button adds its origin and, on a
row, the row's task as the selection; then the request goes to /api/assistant/requests/. The task is a
real one of alice's (on a row, one the page shows) in a status the button is shown for; a button that
asks first is left on its confirmation card. Then `manage.py audit_run --all --failures` runs in a new
process on that database file. Any button whose run ended in an error, fewer runs than buttons pressed,
or a failed audit makes the exit code non-zero.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

    from agent.routing.quick_actions import QuickAction

ROOT = Path(__file__).resolve().parent.parent
DEMO_USER = "alice"
# Each page's address, by URL name; the pages that name a task or a project take its id.
PAGE_URLS = {"home": "home", "project_list": "project-list", "project_detail": "project-detail",
             "task_list": "task-list", "task_detail": "task-detail"}
# The #page-context attributes read as JSON (the others are plain text), as static/js/page_context.js does.
_JSON_KEYS = {"selectedEntity", "routeParams", "filters", "visibleEntityIds", "pagination"}


def buttons_to_press() -> list[QuickAction]:
    """Every button of the quick-action table: each page's sidebar buttons, then its row buttons."""
    from agent.routing.quick_actions import QUICK_ACTIONS, quick_actions_for

    return [button for page in QUICK_ACTIONS for rows in (False, True)
            for button in quick_actions_for(page, rows=rows)]


class _PageContextReader(HTMLParser):
    """The #page-context element's data attributes, in the contract's camelCase shape."""

    def __init__(self) -> None:
        super().__init__()
        self.context: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id") != "page-context":
            return
        self.context = {}
        for name, value in found.items():
            if not name.startswith("data-") or not value:
                continue
            head, *rest = name.removeprefix("data-").split("-")
            key = head + "".join(word.title() for word in rest)
            parsed = json.loads(value) if key in _JSON_KEYS else value
            # Empty objects mean "not set" in the markup; the contract wants them left out.
            if parsed != {}:
                self.context[key] = parsed


def page_context_of(client: Client, url: str) -> dict[str, Any]:
    """Render the page and read its context as the browser does."""
    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    reader = _PageContextReader()
    reader.feed(response.content.decode())
    if reader.context is None:
        raise RuntimeError(f"{url} has no #page-context element")
    return reader.context


def page_url(page: str, task: Any) -> str:
    """The page's address; a project's page is the task's project's, a task's page the task's."""
    from django.urls import reverse

    args = {"project_detail": [task.project_id], "task_detail": [task.pk]}.get(page, [])
    return reverse(PAGE_URLS[page], args=args)


def _task_for(user: User, button: QuickAction, among: list[int] | None = None) -> Any:
    """A task of the user's projects the button is shown for (on a row: one the page shows)."""
    from tasks.models import Task

    tasks = Task.objects.filter(project__memberships__user=user).order_by("pk")
    if among is not None:
        tasks = tasks.filter(pk__in=among)
    if button.hidden_for_status:
        tasks = tasks.exclude(status=button.hidden_for_status)
    task = tasks.first()
    if task is None:
        raise RuntimeError("no task of the demo user's the button is shown for")
    return task


def press(client: Client, user: User, button: QuickAction) -> dict[str, Any]:
    """Press the button on its page as the browser does; return the run as the API answers it."""
    from django.urls import reverse

    context = page_context_of(client, page_url(button.page, _task_for(user, button)))
    context["origin"] = button.origin
    if button.on_rows:
        row = _task_for(user, button, among=list(context.get("visibleEntityIds", [])))
        context["selectedEntity"] = {"type": "task", "id": row.pk}
    response = client.post(reverse("assistant-request"), {"page_context": context, "action": button.action},
                           content_type="application/json")
    if response.status_code != 200:
        raise RuntimeError(f"the API answered {response.status_code}: {response.content.decode()[:300]}")
    run: dict[str, Any] = response.json()
    if run.get("status") == "error":
        raise RuntimeError(f"the run ended in an error: {run.get('error_code') or run.get('reply')}")
    return run


def main() -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-demo-buttons-") as work:
        from bench.architectures.environment import environment_start

        environment_start(Path(work), base_url=None, offline=True)
        from django.contrib.auth.models import User
        from django.core.management import call_command
        from django.test import Client

        from agent.models import Run

        call_command("seed_demo", stdout=io.StringIO())
        alice = User.objects.get(username=DEMO_USER)
        client = Client()
        client.force_login(alice)
        buttons, errors = buttons_to_press(), []
        for button in buttons:
            try:
                press(client, alice, button)
            except Exception as exc:  # every failure is counted and printed
                errors.append(f"{button.page} / {button.origin} / {button.action}: {exc}")
        kept = Run.objects.count()
        # A new process, reading the runs from the database file as the app left them.
        audit = subprocess.run([sys.executable, "manage.py", "audit_run", "--all", "--failures"], cwd=ROOT,
                               env=dict(os.environ), check=False, capture_output=True, text=True)
    *details, counts = audit.stdout.strip().splitlines() or ["no audit output"]
    for line in details:
        print(line)
    print(f"{len(buttons)} demo buttons pressed, {kept} runs kept; {counts}; "
          f"{time.perf_counter() - started:.0f} s")
    for error in errors:
        print(f"  error: {error}")
    if kept < len(buttons) or errors:
        print(f"The demo's buttons kept {kept} runs for {len(buttons)} presses, {len(errors)} ended in an error.",
              file=sys.stderr)
        return 1
    if audit.returncode:
        print(audit.stderr.strip(), file=sys.stderr)
    return audit.returncode


if __name__ == "__main__":
    sys.exit(main())
