"""What a capability's tests import, in one place: `from tests.helpers import ...`.

The fixtures (`alice`, `bob`, `website`, `platform`, `llm_stub`, `openai_settings`, ...) come from the
root conftest.py and need no import. The helpers below are the ones the tests under
agent/capabilities/*/tests/ use, wherever they are defined:

- `post_request(user, page, message=... | action=...)`, `confirm(user, run_id)`, `trace_of(user, run_id)`,
  `events(run_id, kind)`: the HTTP API as the sidebar calls it, and the run's trace;
- `page_context(page, task, origin=...)`: a valid page context for any page, naming the task's project
  or the task where the page needs one; `selected_page(task)`, `visible_page(tasks)`: the task list
  with a selection or with visible rows;
- `route_json(capability, **slots)`: the router model's answer for `LLMStub.push_json` (every slot key);
- `make_tasks(user, project, count)`, `api_client(user)`, `LLMStub`;
- the report clock and data: `NOW`, `clock_at`, `local`, `Seeded` (tests/reports/fixture.py);
- `statements_of(run)`, `statements_constant(run, grow=...)`: the statements a read sends, and that they
  stay the same when the data grows (tests/statements.py).
"""
from __future__ import annotations

from typing import Any

from tasks.models import Task
from tests.clients import api_client
from tests.data_layer.helpers import confirm, events, make_tasks, post_request, route_json, trace_of, visible_page
from tests.llm_stub import LLMStub
from tests.reports.fixture import NOW, Seeded, clock_at, local
from tests.statements import statements_constant, statements_of

__all__ = ["NOW", "LLMStub", "Seeded", "api_client", "ask", "clock_at", "confirm", "events", "local", "make_tasks",
           "page_context", "post_request", "route_json", "selected_page", "statements_constant", "statements_of",
           "trace_of", "visible_page"]


def page_context(page: str, task: Task, *, origin: str = "sidebar") -> dict[str, Any]:
    """A page context for `page` sent from `origin`: the task's project or the task where the page names one."""
    route = {"project_detail": {"projectId": task.project_id}, "task_detail": {"taskId": task.pk}}.get(page, {})
    return {"page": page, "origin": origin, "routeParams": route}


def selected_page(task: Task) -> dict[str, Any]:
    """The task list with the task selected, asked from the sidebar."""
    return {"page": "task_list", "origin": "sidebar", "selectedEntity": {"type": "task", "id": task.pk}}


def ask(user: Any, message: str, page: dict[str, Any]) -> dict[str, Any]:
    """Send a typed message from the page; the run's answer as the API shapes it."""
    return post_request(user, page, message=message)
