"""The field allocation of docs/DESIGN.md#the-three-context-views, field by field and view by view."""
from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from agent.context.assemble import AssembledContext, context_assemble
from agent.context.three_views import ALLOCATION as VIEW_ALLOCATION
from agent.context.three_views import EXEC_VISIBLE_IDS_MAX, ExecCtx, ModelSummary, RouterCtx
from agent.management.design_tables import allocation_cell
from agent.models import Run
from agent.page_context.names import EntityNames
from agent.page_context.schema import KeyFilters, PageContext
from tasks.models import Task
from tasks.services import task_create
from tests.clients import api_client
from tests.run_states import final_states

SELECTED = 100_101
ROUTE_TASK = 100_102
ROUTE_PROJECT = 100_201
VISIBLE = tuple(range(100_301, 100_311))
USER_ID = 4242
ALL_IDS = (SELECTED, ROUTE_TASK, ROUTE_PROJECT, *VISIBLE)

FULL: dict[str, Any] = {
    "page": "task_list",
    "origin": "task_row",
    "selectedEntity": {"type": "task", "id": SELECTED},
    "routeParams": {"projectId": ROUTE_PROJECT, "taskId": ROUTE_TASK},
    "activeTab": "milestones",
    "viewMode": "gantt",
    "filters": {"status": ["blocked"], "assignee": "me", "priority": ["P0"], "dueBefore": "2031-05-17",
                "dueAfter": "2031-04-02", "labels": ["frontend"]},
    "visibleEntityIds": list(VISIBLE),
    "searchKeyword": "zebrafish",
    "pagination": {"page": 777, "pageSize": 33},
}
NAMES = EntityNames(project_name="Website Redesign", task_title="Fix login page")

# The rules of docs/DESIGN.md#the-three-context-views, as that table says them (it is rendered from the
# code's ALLOCATION, agent/context/three_views.py): field -> (RouterCtx, ExecCtx, ModelSummary). The checks below
# hold context_assemble to each rule with values only that field carries.
_RULES = {"yes": "yes", "no": "no", "**never**": "never", "key filters only": "key filters", "as words": "words",
          f"only when at most {EXEC_VISIBLE_IDS_MAX}, else None": "at most 20"}
ALLOCATION = {info.alias or name: tuple(_RULES[allocation_cell(view, name)] for view in VIEW_ALLOCATION)
              for name, info in PageContext.model_fields.items()}
VIEWS = ("router", "exec", "summary")
# Values that only this field of FULL carries: if a view holds one, it holds the field.
MARKERS: dict[str, tuple[Any, ...]] = {
    "page": ("task_list",),
    "origin": ("task_row",),
    "selectedEntity": (SELECTED,),
    "routeParams": (ROUTE_PROJECT, ROUTE_TASK),
    "activeTab": ("milestones",),
    "viewMode": ("gantt",),
    "filters": ("blocked", "P0", "2031-05-17", "2031-04-02", "frontend"),
    "visibleEntityIds": VISIBLE,
    "searchKeyword": ("zebrafish",),
    "pagination": (777, 33),
}
# What the ModelSummary must say for a field it gets "as words".
SUMMARY_WORDS = {
    "page": ["task list"],
    "selectedEntity": ["“Fix login page”"],
    "routeParams": ["“Website Redesign”"],
    "activeTab": ["milestones"],
    "viewMode": ["gantt"],
    "filters": ["blocked", "P0", "assigned to the user", "May 17, 2031", "April 2, 2031", "frontend"],
}


def snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def assembled(overrides: dict[str, Any] | None = None, user_id: int = USER_ID) -> AssembledContext:
    context = PageContext.model_validate({**FULL, **(overrides or {})})
    return context_assemble(context=context, user_id=user_id, names=NAMES)


def leaves(value: Any) -> list[Any]:
    """Every scalar of a dumped view, at any depth."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def standalone_numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\b\d+\b", text)}


def assert_absent(view: BaseModel, field: str) -> None:
    dumped = view.model_dump(mode="json")
    assert snake(field) not in type(view).model_fields
    assert not {field, snake(field)} & set(dumped), f"{type(view).__name__} carries {field}"
    for marker in MARKERS[field]:
        assert marker not in leaves(dumped), f"{type(view).__name__} carries the value {marker!r} of {field}"


def check_structured(view: RouterCtx | ExecCtx, field: str, rule: str, context: PageContext) -> None:
    if rule in ("no", "never"):
        assert_absent(view, field)
        return
    if rule == "key filters":
        assert isinstance(view, RouterCtx)
        assert view.key_filters == KeyFilters(status=("blocked",), assignee="me", priority=("P0",))
        assert "filters" not in RouterCtx.model_fields
        assert {"due_before", "due_after", "labels"}.isdisjoint(KeyFilters.model_fields)
        assert not {"2031-05-17", "2031-04-02", "frontend"} & set(leaves(view.model_dump(mode="json")))
        return
    # "yes" and "at most 20" (FULL has 10 visible ids): the view holds the page's value unchanged.
    assert getattr(view, snake(field)) == getattr(context, snake(field))


@pytest.mark.parametrize(("field", "view"), [(f, v) for f in ALLOCATION for v in VIEWS])
def test_allocation_table(field: str, view: str) -> None:
    rule = ALLOCATION[field][VIEWS.index(view)]
    context = PageContext.model_validate(FULL)
    views = assembled()
    if view == "router":
        check_structured(views.router, field, rule, context)
        return
    if view == "exec":
        check_structured(views.exec, field, rule, context)
        return
    text = views.summary.text
    assert set(ModelSummary.model_fields) == {"text", "tokens"}
    assert not standalone_numbers(text) & set(ALL_IDS), f"raw id in the summary: {text}"
    if rule == "words":
        for words in SUMMARY_WORDS[field]:
            assert words.lower() in text.lower(), f"{words!r} missing from: {text}"
    else:
        for marker in MARKERS[field]:
            assert re.search(rf"\b{re.escape(str(marker))}\b", text) is None, f"{marker!r} in: {text}"
        if field == "origin":
            assert "origin" not in text.lower() and "task row" not in text.lower()


def test_every_page_context_field_is_allocated_and_tested() -> None:
    assert set(ALLOCATION) == {PageContext.model_fields[name].alias for name in PageContext.model_fields}
    assert set(MARKERS) == set(ALLOCATION), "give a new field its markers in FULL and MARKERS"
    assert {field for field, rules in ALLOCATION.items() if rules[2] == "words"} == set(SUMMARY_WORDS)
    assert list(VIEW_ALLOCATION) == [RouterCtx, ExecCtx, ModelSummary]


@pytest.mark.parametrize(("count", "kept"), [(0, True), (1, True), (EXEC_VISIBLE_IDS_MAX, True),
                                             (EXEC_VISIBLE_IDS_MAX + 1, False), (500, False)])
def test_exec_ctx_keeps_visible_ids_only_up_to_20(count: int, kept: bool) -> None:
    ids = list(range(100_001, 100_001 + count))
    views = assembled({"visibleEntityIds": ids})
    assert EXEC_VISIBLE_IDS_MAX == 20
    assert views.exec.visible_entity_ids == (tuple(ids) if kept else None)
    assert not standalone_numbers(views.summary.text) & set(ids)
    assert views.router.model_dump() == assembled({"visibleEntityIds": []}).router.model_dump()


def test_exec_ctx_user_is_the_one_passed_by_the_service_not_the_page() -> None:
    assert assembled(user_id=7).exec.user_id == 7
    assert assembled(user_id=8).exec.user_id == 8


@pytest.mark.parametrize(("view", "field", "value"), [
    ("router", "page", "home"), ("router", "origin", "sidebar"), ("exec", "user_id", 1),
    ("exec", "visible_entity_ids", ()), ("summary", "text", "changed"), ("summary", "tokens", 0),
])
def test_views_are_immutable(view: str, field: str, value: Any) -> None:
    target = getattr(assembled(), view)
    before = target.model_dump()
    with pytest.raises(ValidationError):
        setattr(target, field, value)
    assert target.model_dump() == before


@pytest.mark.parametrize(("cls", "extra"), [
    (RouterCtx, "visible_entity_ids"), (RouterCtx, "search_keyword"), (RouterCtx, "pagination"),
    (RouterCtx, "view_mode"), (RouterCtx, "filters"), (RouterCtx, "user_id"),
    (ExecCtx, "origin"), (ExecCtx, "page"), (ExecCtx, "active_tab"), (ExecCtx, "view_mode"),
    (ModelSummary, "visible_entity_ids"), (ModelSummary, "selected_entity"), (ModelSummary, "origin"),
])
def test_views_refuse_unknown_fields(cls: type[BaseModel], extra: str) -> None:
    valid = assembled()
    base = {RouterCtx: valid.router, ExecCtx: valid.exec, ModelSummary: valid.summary}[cls].model_dump()
    cls.model_validate(base)  # the valid value is accepted...
    with pytest.raises(ValidationError) as exc:
        cls.model_validate({**base, extra: None})  # ...one more field is not
    assert exc.value.errors()[0]["type"] == "extra_forbidden"


def test_key_filters_refuse_the_other_filters() -> None:
    with pytest.raises(ValidationError):
        KeyFilters.model_validate({"status": ["todo"], "due_before": "2031-01-01"})



def test_exec_ctx_user_comes_from_the_authenticated_user(monkeypatch: pytest.MonkeyPatch, alice: Any, carol: Any,
                                                         website: Any) -> None:
    task = task_create(actor=alice, project=website, title="Write copy", assignee=alice)
    ctx = {"page": "task_list", "origin": "task_row", "selectedEntity": {"type": "task", "id": task.pk}}
    states = final_states(monkeypatch)
    body = api_client(carol).post("/api/assistant/requests/",
                               {"message": f"mark task #{task.pk} done", "page_context": ctx}, format="json").json()
    assert body["status"] == "done", body
    exec_ctx = states[body["run_id"]]["exec_ctx"]
    assert isinstance(exec_ctx, ExecCtx) and exec_ctx.user_id == carol.pk
    assert Task.objects.get(pk=task.pk).activities.filter(kind="status").get().actor == carol


@pytest.mark.parametrize(("body", "field"), [
    ({"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench", "userId": 1}},
     "page_context.userId"),
    ({"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench", "user_id": 1}},
     "page_context.user_id"),
    ({"action": "my_overdue", "userId": 1, "page_context": {"page": "home", "origin": "workbench"}}, "userId"),
    ({"action": "my_overdue", "page_context": {"page": "home", "origin": "workbench",
                                               "filters": {"userId": 1}}}, "page_context.filters.userId"),
])
def test_a_user_id_in_the_payload_is_refused(alice: Any, bob: Any, body: dict[str, Any], field: str) -> None:
    body = {**body}
    for holder in (body, body["page_context"], body["page_context"].get("filters", {})):
        for key in ("userId", "user_id"):
            if key in holder:
                holder[key] = bob.pk
    response = api_client(alice).post("/api/assistant/requests/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert not Run.objects.exists()
