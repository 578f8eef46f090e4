"""ARCH001-ARCH005: each planted violation is reported at its line; clean code and the real tree pass."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest

from archcheck import RULES, check_tree

from .conftest import REPOSITORY, plant

# (rule, where the module lives, source). Lines ending in "# <-" are where the rule must report.
VIOLATIONS = [
    ("ARCH001", "agent/capabilities/planner.py", '''
        from agent.prompting.messages import PromptPart

        def plan(state, runtime):
            return [PromptPart(ref="page", form="full", role="system", text=str(state["exec_ctx"]))]  # <-
    '''),
    ("ARCH001", "agent/capabilities/planner.py", '''
        from agent.prompting.messages import PromptPart

        def plan(state, runtime):
            ctx = state["exec_ctx"]
            return PromptPart(ref="page", form="full", role="system",
                              text=f"Context for planning: {ctx}")  # <-
    '''),
    ("ARCH001", "agent/routing/explain.py", '''
        from agent.context.three_views import RouterCtx
        from agent.prompting.messages import PromptPart

        def part(view: RouterCtx) -> PromptPart:
            words = "Where the user is: " + repr(view)  # <-
            return PromptPart(ref="router_ctx", form="summary", role="system", text=words)
    '''),
    ("ARCH001", "agent/graph/planner.py", '''
        def messages(state, page_context):
            return [{"role": "system", "content": f"Page: {page_context}"},  # <-
                    {"role": "user", "content": state["message"]}]
    '''),
    ("ARCH001", "agent/capabilities/filters.py", '''
        from agent.prompting.messages import PromptPart

        def part(ctx):
            shown = "; ".join(f"{value}" for value in ctx.filters.status)  # <-
            return PromptPart("filters", "summary", "system", shown)
    '''),
    ("ARCH001", "agent/capabilities/alias.py", '''
        from agent.prompting.messages import PromptPart

        def plan(state):
            view = state["exec_ctx"]
            return PromptPart(ref="f", form="summary", role="system", text=f"Filters: {view.filters}")  # <-
    '''),
    ("ARCH002", "agent/routing/suggest.py", '''
        def suggest_create(ctx):
            if not ctx.visible_entity_ids:  # <-
                return "crud"
            return "query"
    '''),
    ("ARCH002", "agent/routing/peek.py", '''
        def route_with_state(state):
            return state["exec_ctx"]  # <-
    '''),
    ("ARCH002", "agent/routing/due.py", '''
        from agent.context.three_views import ExecCtx  # <-

        def overdue_hint(view):
            return view.filters.due_before  # <-
    '''),
    ("ARCH002", "agent/routing/paging.py", '''
        def later_page(page_context_json):
            return page_context_json["pagination"]["page"] > 1  # <-
    '''),
    # The graph's route node routes too: it may not peek at the visible list either.
    ("ARCH002", "agent/graph/route.py", '''
        def route(state, runtime):
            if not state["exec_ctx"].visible_entity_ids:  # <-
                return {"route": None}
            return {}
    '''),
    ("ARCH002", "agent/routing/alias.py", '''
        def route(load):
            exec_ctx = load()  # <-
            return exec_ctx  # <-
    '''),
    ("ARCH003", "agent/tools/detail.py", '''
        def query_tasks(*, ctx, origin="sidebar"):  # <-
            return {"brief": True}
    '''),
    ("ARCH003", "agent/tools/detail.py", '''
        def query_tasks(*, ctx, state):
            if state["router_ctx"].origin == "workbench":  # <-
                return {"detailed": True}
            return {"detailed": False}
    '''),
    ("ARCH003", "agent/artifacts/meta.py", '''
        def label(meta):
            return meta.get("origin", "")  # <-
    '''),
    ("ARCH003", "agent/tools/entry.py", '''
        from agent.context.three_views import RouterCtx  # <-
    '''),
    ("ARCH003", "agent/capabilities/suggest.py", '''
        def clarify(state, runtime):
            ctx = state["router_ctx"]
            if ctx.origin == "task_row":  # <-
                return {"short": True}
            return {"page": ctx.page}
    '''),
    ("ARCH003", "agent/capabilities/crud_like.py", '''
        def crud(state, runtime):
            entry = getattr(state["router_ctx"], "origin")  # <-
            return {"confirm": entry != "quick_button"}
    '''),
    ("ARCH003", "agent/tools/plan.py", '''
        def step_arguments(view, router, origin=None):  # <-
            return {"entry": router.get("origin")}  # <-
    '''),
    ("ARCH004", "agent/prompting/filters.py", '''
        import json

        def filters_text(filters):
            return "Filters: " + json.dumps(filters)  # <-
    '''),
    ("ARCH004", "agent/capabilities/report.py", '''
        def planner_input(ctx):
            return ctx.filters.model_dump_json()  # <-
    '''),
    ("ARCH004", "agent/routing/raw.py", '''
        from json import dumps  # <-
    '''),
    # ARCH005 watches every folder of code, tests and bench included.
    ("ARCH005", "agent/tools/overdue.py", '''
        OPEN = ("todo", "in_progress", "blocked")  # <-

        def overdue_filters(today):
            return {"status": list(OPEN), "due_before": today}
    '''),
    ("ARCH005", "reports/active.py", '''
        def active(status):
            return status in {"in_progress", "blocked"}  # <-
    '''),
    ("ARCH005", "tasks/open_like.py", '''
        from tasks.models import Task

        OPEN = [Task.Status.TODO, Task.Status.IN_PROGRESS, Task.Status.BLOCKED]  # <-
    '''),
    ("ARCH005", "tests/test_pages_like.py", '''
        import pytest

        @pytest.mark.parametrize("page", ["home", "project_list", "task_list"])  # <-
        def test_page(page):
            assert page
    '''),
    ("ARCH005", "bench/seed_like.py", '''
        from typing import Literal

        Priority = Literal["P0", "P1", "P2", "P3"]  # <-
        QUERY = "todo,in_progress,blocked"  # <-
    '''),
]

CLEAN = [
    ("agent/capabilities/explain.py", '''
        from agent.prompting.messages import PromptPart

        def row_words(row):
            return row["title"]

        def parts(state, result):
            summary = state["model_summary"]
            rows = [row_words(r) for r in result["items"]]
            return [
                PromptPart(ref="model_summary", form="summary", role="system", text=summary.text),
                PromptPart(ref="tool:q", form="full", role="user",
                           text=f"{result['count']} found:\\n" + "\\n".join(rows)),
                PromptPart(ref="user_message", form="full", role="user", text=state["message"]),
                PromptPart(ref="also", form="summary", role="user", text=state.get("model_summary").text),
            ]
    '''),
    ("agent/routing/words.py", '''
        from agent.prompting.messages import PromptPart

        WORDS = {"home": "home workbench"}

        def router_ctx_words(ctx):
            filters = []
            if ctx.key_filters.status:
                filters.append("status " + " or ".join(ctx.key_filters.status))
            return f"Page: {WORDS[ctx.page]}, from {ctx.origin}. " + ", ".join(filters)

        def part(ctx):
            return PromptPart(ref="router_ctx", form="summary", role="system", text=router_ctx_words(ctx))
    '''),
    ("agent/tools/query.py", '''
        """Tools never see the origin of a request."""

        def query_tasks(*, ctx, filters):
            return {"count": len(ctx.visible_entity_ids or ()), "search": ctx.search_keyword}
    '''),
    # A capability may read its own view from the state, RouterCtx included, as long as it is not the origin.
    ("agent/capabilities/clarify_like.py", '''
        from agent.state import AgentState

        def clarify(state: AgentState, runtime):
            ctx = state["router_ctx"]
            return {"suggestions": SUGGESTIONS[ctx.page], "route": state.get("route")}
    '''),
    ("agent/capabilities/payload.py", '''
        import json

        def payload(rows):
            return json.dumps(rows)  # archcheck: allow ARCH004 sent to the browser, never to a prompt
    '''),
    # The same words outside a rule's folders are someone else's business.
    ("agent/llm/offline_like.py", '''
        import json

        def reply(route):
            return json.dumps(route)
    '''),
    ("agent/service_like.py", '''
        def describe(page_context):
            return f"{page_context.origin} {page_context.visible_entity_ids} {page_context.model_dump()}"
    '''),
    # One name is a value, not a list; a record or a mixed list is not a list of statuses; a mapping attaches data.
    ("tasks/record_like.py", '''
        from pm_assistant.vocabulary import OPEN_STATUSES

        STEP = ("status", "status", "todo", "in_progress")
        LISTS = ("completed", "overdue", "in_progress", "blocked")
        WEIGHTS = {"todo": 1, "done": 2}

        def is_late(task, today):
            return task.status in OPEN_STATUSES and task.status != "done" and task.due < today
    '''),
    # The declaring module spells its lists.
    ("pm_assistant/vocabulary.py", '''
        OPEN_STATUSES = ("todo", "in_progress", "blocked")
    '''),
    ("tests/test_sample.py", '''
        # archcheck: allow ARCH005 a sample filter
        FILTER = {"status": ["todo", "done"], "priority": ["P1", "P2"]}  # archcheck: allow ARCH005 the same
    '''),
]

# Templates: (source, lines where ARCH005 must report).
TEMPLATE_VIOLATIONS = [
    ('<a href="{% url \'task-list\' %}?assignee=me&amp;status=todo,in_progress,blocked">Open</a>\n', {1}),
    ('{% if s in "todo,done" %}x{% endif %}\n', {1}),
    ('<span class="legend-swatch status-todo"></span>To do\n'
     '<span class="legend-swatch status-done"></span>Done\n', {2}),
    ('<option value="P0">P0</option>\n<option value="P1">P1</option>\n', {2}),
]
TEMPLATE_CLEAN = [
    '<a href="?assignee=me&amp;status={% open_statuses %}">Open</a> <a href="?status=blocked">Blocked</a>\n',
    '{% for value, label in statuses %}<span class="status-{{ value }}">{{ label }}</span>{% endfor %}\n',
    '{% if t.status != "done" %}{{ row.done }} done, {{ row.blocked }} blocked{% endif %}\n'
    '{% if value == "blocked" %}!{% endif %} <a href="{% url \'home\' %}">Home</a>\n',
    '{# archcheck: allow ARCH005 a fixed legend #}<i class="status-todo"></i><i class="status-done"></i>\n',
]


def _marked_lines(source: str) -> set[int]:
    return {n for n, line in enumerate(dedent(source).lstrip().splitlines(), start=1) if line.endswith("# <-")}


@pytest.mark.parametrize(("rule", "relpath", "source"), VIOLATIONS, ids=[f"{r}-{p}" for r, p, _ in VIOLATIONS])
def test_planted_violation_is_reported_at_its_line(tmp_path: Path, rule: str, relpath: str, source: str) -> None:
    plant(tmp_path, relpath, source)
    found = check_tree(tmp_path)
    assert found, f"{rule} missed the planted violation in {relpath}"
    assert {v.line for v in found if v.rule == rule} == _marked_lines(source), [str(v) for v in found]
    assert all(v.path == relpath for v in found)


@pytest.mark.parametrize(("relpath", "source"), CLEAN, ids=[p for p, _ in CLEAN])
def test_clean_module_passes(tmp_path: Path, relpath: str, source: str) -> None:
    plant(tmp_path, relpath, source)
    assert [str(v) for v in check_tree(tmp_path)] == []


@pytest.mark.parametrize(("source", "lines"), TEMPLATE_VIOLATIONS)
def test_a_template_that_spells_a_list_is_reported(tmp_path: Path, source: str, lines: set[int]) -> None:
    plant(tmp_path, "templates/tasks/page.html", source)
    found = check_tree(tmp_path)
    assert {(v.path, v.rule) for v in found} == {("templates/tasks/page.html", "ARCH005")}, [str(v) for v in found]
    assert {v.line for v in found} == lines


@pytest.mark.parametrize("source", TEMPLATE_CLEAN)
def test_a_template_that_derives_its_lists_passes(tmp_path: Path, source: str) -> None:
    plant(tmp_path, "templates/tasks/page.html", source)
    assert [str(v) for v in check_tree(tmp_path)] == []


def test_a_template_waiver_without_a_reason_does_not_count(tmp_path: Path) -> None:
    plant(tmp_path, "templates/tasks/page.html", '{# archcheck: allow ARCH005 #}<i class="status-todo"></i>'
                                                 '<i class="status-done"></i>\n')
    assert [v.rule for v in check_tree(tmp_path)] == ["ARCH005"]


def test_the_home_template_before_the_open_statuses_tag_fails(tmp_path: Path) -> None:
    """home.html as it was: the open statuses written out in each link."""
    link = '<a href="{% url \'task-list\' %}?assignee=me&amp;status=todo,in_progress,blocked">{{ c.open }}</a>\n'
    plant(tmp_path, "templates/home.html", link * 6)
    found = check_tree(tmp_path)
    assert [v.line for v in found] == [1, 2, 3, 4, 5, 6]
    assert all("OPEN_STATUSES" in v.message for v in found)


def test_every_rule_has_a_planted_violation() -> None:
    assert {rule.id for rule in RULES} == {rule for rule, _, _ in VIOLATIONS}


def test_waiver_without_a_reason_says_so(tmp_path: Path) -> None:
    plant(tmp_path, "agent/capabilities/report.py", '''
        import json
        x = json.dumps({})  # archcheck: allow ARCH004
    ''')
    [violation] = check_tree(tmp_path)
    assert violation.rule == "ARCH004" and "needs a reason" in violation.message


def test_unwaivable_rules_ignore_waivers(tmp_path: Path) -> None:
    plant(tmp_path, "agent/tools/entry.py", '''
        def query_tasks(*, ctx):
            return ctx.origin  # archcheck: allow ARCH003 the sidebar wants it short
    ''')
    assert [v.rule for v in check_tree(tmp_path)] == ["ARCH003"]


def test_unparsable_module_fails(tmp_path: Path) -> None:
    plant(tmp_path, "agent/routing/broken.py", "def route(:\n")
    assert [v.rule for v in check_tree(tmp_path)] == ["ARCH000"]


def test_real_tree_passes() -> None:
    assert [str(v) for v in check_tree(REPOSITORY)] == []


def test_command_line_reports_and_exits_non_zero(tmp_path: Path) -> None:
    plant(tmp_path, "agent/routing/suggest.py", '''
        def suggest_create(ctx):
            return not ctx.visible_entity_ids
    ''')
    bad = subprocess.run([sys.executable, "-m", "archcheck", "--root", str(tmp_path)], cwd=REPOSITORY,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert bad.stdout.startswith("agent/routing/suggest.py:2:")
    assert "ARCH002" in bad.stdout

    good = subprocess.run([sys.executable, "-m", "archcheck"], cwd=REPOSITORY, capture_output=True, text=True,
                          timeout=60)
    assert good.returncode == 0, good.stdout + good.stderr


def test_every_module_that_routes_is_watched_by_arch002() -> None:
    """A module that calls the router model or defines the route node is routing code (ARCH002's scope)."""
    from archcheck.rules import ROUTERS

    root = Path(__file__).resolve().parents[2]
    routing = []
    for path in sorted((root / "agent").rglob("*.py")):
        tree = ast.parse(path.read_text())
        calls_router = any(isinstance(n, ast.ImportFrom) and n.module == "agent.routing.llm_router"
                           and any(a.name == "llm_route" for a in n.names) for n in ast.walk(tree))
        defines_route = any(isinstance(n, ast.FunctionDef) and n.name in {"route", "to_capability"}
                            for n in tree.body)
        if calls_router or defines_route:
            routing.append(path.relative_to(root).as_posix())
    assert "agent/graph/route.py" in routing
    assert [p for p in routing if not p.startswith(ROUTERS)] == []
