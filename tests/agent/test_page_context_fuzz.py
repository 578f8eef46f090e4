"""Generated page contexts, nesting bombs included, never get a 5xx from the API or the sidebar."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pm_assistant.vocabulary import PAGES, PRIORITIES, STATUSES
from projects.models import Project
from tasks.models import Task
from tasks.services import task_create
from tests.hypothesis_profiles import examples

EXAMPLES = examples(1000)
KEYS = ["page", "origin", "selectedEntity", "routeParams", "activeTab", "viewMode", "filters",
        "visibleEntityIds", "searchKeyword", "pagination"]
ORIGINS = ["sidebar", "quick_button", "task_row", "workbench"]

ids = st.one_of(st.integers(min_value=-3, max_value=3), st.integers(min_value=1, max_value=2**63),
                st.sampled_from([0, 2**63, -(2**63)]))
text = st.text(max_size=30)
scalars = st.one_of(st.none(), st.booleans(), ids, st.floats(allow_nan=False), text)
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(text, inner, max_size=4)), max_leaves=12)


@dataclass(frozen=True)
class Bomb:
    """Nesting `depth` deep, written as text: deeper than the encoder itself could go."""

    depth: int
    kind: str

    def text(self) -> str:
        open_, close = ("[", "]") if self.kind == "list" else ('{"a": ', "}")
        return open_ * self.depth + "1" + close * self.depth


def encode(value: Any) -> str:
    """JSON for the value, with each Bomb spliced in as its text."""
    bombs: list[Bomb] = []

    def mark(bomb: Any) -> str:
        assert isinstance(bomb, Bomb)
        bombs.append(bomb)
        return f"@@bomb{len(bombs) - 1}@@"

    out = json.dumps(value, default=mark)
    for index, bomb in enumerate(bombs):
        out = out.replace(f'"@@bomb{index}@@"', bomb.text(), 1)
    return out


bombs = st.builds(Bomb, st.sampled_from([33, 200, 5000, 50_000]), st.sampled_from(["list", "dict"]))
field_values: dict[str, st.SearchStrategy[Any]] = {
    "page": st.one_of(st.sampled_from(PAGES), json_values),
    "origin": st.one_of(st.sampled_from(ORIGINS), json_values),
    "selectedEntity": st.one_of(st.none(), st.fixed_dictionaries({"type": st.sampled_from(["task", "project", "x"]),
                                                                  "id": ids}), json_values),
    "routeParams": st.one_of(st.dictionaries(st.sampled_from(["projectId", "taskId", "other"]), ids, max_size=2),
                             json_values),
    "activeTab": st.one_of(st.none(), text),
    "viewMode": st.one_of(st.none(), st.sampled_from(["list", "board", "gantt", "grid"])),
    "filters": st.one_of(st.dictionaries(st.sampled_from(["status", "assignee", "priority", "dueBefore", "dueAfter",
                                                          "labels", "x"]), json_values, max_size=3), bombs),
    "visibleEntityIds": st.one_of(st.lists(ids, max_size=8), json_values, bombs),
    "searchKeyword": st.one_of(text, st.text(min_size=195, max_size=210), json_values),
    "pagination": st.one_of(st.fixed_dictionaries({"page": ids, "pageSize": ids}), json_values),
}
page_contexts = st.one_of(
    st.fixed_dictionaries({"page": st.sampled_from(PAGES), "origin": st.sampled_from(ORIGINS)},
                          optional={key: field_values[key] for key in KEYS[2:]}),
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=5),
    json_values,
    bombs,
)
small_ids = st.integers(min_value=1, max_value=50)
# Well-typed contexts, so that many requests get past validation into the graph (or meet stale ids).
plausible = st.fixed_dictionaries(
    # archcheck: allow ARCH005 two pages that need no route params
    {"page": st.sampled_from(["home", "task_list"]), "origin": st.sampled_from(["sidebar", "workbench"])},
    optional={
        "selectedEntity": st.fixed_dictionaries({"type": st.just("task"), "id": small_ids}),
        "visibleEntityIds": st.lists(small_ids, max_size=20),
        "activeTab": st.sampled_from(["overview", "in_progress", "done"]),
        "viewMode": st.sampled_from(["list", "board", "gantt"]),
        "filters": st.fixed_dictionaries({}, optional={
            "status": st.lists(st.sampled_from(STATUSES), max_size=3, unique=True),
            "assignee": st.just("me"), "priority": st.lists(st.sampled_from(PRIORITIES), max_size=2, unique=True),
            "dueBefore": st.dates().map(str), "labels": st.lists(text, max_size=3)}),
        "searchKeyword": text,
        "pagination": st.fixed_dictionaries({"page": small_ids, "pageSize": st.integers(1, 100)}),
    },
)
requests = st.tuples(st.one_of(plausible, page_contexts), st.sampled_from(["api-action", "api-message", "sidebar"]))


@pytest.fixture
def alice_client(alice: User, website: Project) -> Client:
    task_create(actor=alice, project=website, title="Fix login page", assignee=alice)
    client = Client()
    client.force_login(alice)
    return client


def _send(client: Client, page_context: Any, via: str) -> int:
    if via == "sidebar":
        return client.post("/assistant/request/", {"message": "show my tasks",
                                                   "page_context": encode(page_context)}).status_code
    body = {"action": "my_overdue"} if via == "api-action" else {"message": "what is overdue?"}
    return client.post("/api/assistant/requests/", data=encode({**body, "page_context": page_context}),
                       content_type="application/json").status_code


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(request=requests)
def test_generated_page_contexts_never_get_a_5xx(alice_client: Client, request: tuple[Any, str]) -> None:
    page_context, via = request
    status = _send(alice_client, page_context, via)
    event(f"{via}: HTTP {status}")
    assert status in (200, 400), (status, via, encode(page_context)[:300])


def test_the_fuzz_reaches_both_answers(alice_client: Client) -> None:
    """The generator is not all rejects: a plain context is served and a bomb is refused."""
    assert _send(alice_client, {"page": "home", "origin": "workbench"}, "api-action") == 200
    assert _send(alice_client, Bomb(50_000, "list"), "api-message") == 400
    assert Task.objects.count() == 1


@pytest.mark.parametrize("via", ["api-action", "api-message", "sidebar"])
@pytest.mark.parametrize("raw", ['{"page": "home", "origin": "workbench", "\\ud800": 1}',
                                 '{"page": "home", "origin": "workbench", "searchKeyword": "\\udfff"}'])
def test_a_lone_surrogate_in_the_page_context_is_a_400(alice_client: Client, via: str, raw: str) -> None:
    """JSON may escape half a UTF-16 pair; no text holds one, so it is refused before anything echoes it."""
    if via == "sidebar":
        response = alice_client.post("/assistant/request/", {"message": "show my tasks", "page_context": raw})
    else:
        body = '{"action": "my_overdue", ' if via == "api-action" else '{"message": "what is overdue?", '
        response = alice_client.post("/api/assistant/requests/", data=body + '"page_context": ' + raw + "}",
                                     content_type="application/json")
    assert response.status_code == 400
    # The API names the reason; the sidebar says it in a person's words.
    assert ("cannot use" if via == "sidebar" else "surrogate") in response.content.decode()
