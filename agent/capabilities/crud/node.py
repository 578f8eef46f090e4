"""crud: create, update, assign, rename or delete tasks from slots; deletes and big bulk updates wait for approval."""
from __future__ import annotations

from typing import Any, TypedDict

from django.conf import settings
from django.utils import timezone
from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import ask_approval, clarify, done, failed
from agent.capabilities.common.task_keys import UntypedId, target_task_id, wrong_typed_key
from agent.context.three_views import ExecCtx
from agent.routing.decision import Route, Slots
from agent.runtime import RunContext
from agent.tools import project_tools, task_tools
from agent.tools.binding import Binding
from agent.tools.facts import fact, values_digest
from agent.words.language import Language, language_of
from pm_assistant.errors import ApplicationError
from pm_assistant.markdown import quoted

from . import tools
from .answers import TEXTS, created_words, status_label, update_words
from .fields import FIELD_OPERATIONS, change_fields
from .write_approval import approve_unasked_create, approve_unasked_update, mismatch_words, mismatches_noted

# A task number the user typed: "42", "#42", "task 42", "任务42" or the number of a key such as "WEB-42".


class CrudInput(TypedDict):
    message: str
    exec_ctx: ExecCtx
    route: Route


def _project_id(ctx: ExecCtx) -> int | None:
    if ctx.selected_entity and ctx.selected_entity.type == "project":
        return ctx.selected_entity.id
    return ctx.route_params.project_id


def _facts_with_mismatches(runtime: Runtime[RunContext], task_id: int, slots: Slots, *,
                           subtasks: bool) -> dict[str, Any]:
    runner = runtime.context.tools
    runner.read("facts", "task_facts", task_tools.task_facts, scope=lambda facts: [facts["project_id"]],
                task_id=task_id, subtasks=subtasks)
    facts = runner.data("facts")
    return {**facts, "mismatches": mismatches_noted(runtime, task_id, facts, slots)}


def _policy_facts(facts: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The facts an update or delete relies on: read from the database, the time from the server."""
    recorded: dict[str, dict[str, Any]] = {
        name: fact(facts[name], "database") for name in ("title", "status", "subtask_count", "updated_at")
        if name in facts}
    return {**recorded, "now": fact(timezone.now().isoformat(), "server_clock")}


def _pick_project(runtime: Runtime[RunContext], title: str, language: Language) -> dict[str, Any]:
    """Ask which project a new task goes in, with the user's projects as choices (the sidebar's picker)."""
    steps = runtime.context.tools
    steps.read("projects", "projects_to_create_in", project_tools.projects_to_create_in,
               scope=lambda result: [row["id"] for row in result["items"]])
    choices = steps.shown["projects"]
    if not choices:
        return failed(TEXTS[language]["no_project"], "forbidden")
    more = TEXTS[language]["more_projects"] if steps.count("projects") > len(choices) else ""
    return clarify(TEXTS[language]["pick_project"].format(title=quoted(title), more=more), project_choices=choices)


def _create(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots, language: Language) -> dict[str, Any]:
    project_id = _project_id(ctx)
    if not slots.title:
        return clarify(TEXTS[language]["name_it"])
    if project_id is None:
        return _pick_project(runtime, slots.title, language)
    row = runtime.context.tools.write("create_task", tools.create_task, project_id=project_id, title=slots.title,
                                      priority=slots.priority, due_date=slots.due_date, status=slots.status)
    words = created_words({**row, "priority_named": slots.priority is not None}, language=language)
    return done(words, task=row)


def _update_one(runtime: Runtime[RunContext], slots: Slots, task_id: int, language: Language) -> dict[str, Any]:
    # An update changes the task alone: its subtasks are not read.
    facts = _facts_with_mismatches(runtime, task_id, slots, subtasks=False)
    steps = runtime.context.tools
    row = steps.write("update_task", tools.update_task, facts=_policy_facts(facts), task_id=task_id,
                      run_id=steps.run_id, status=slots.status, priority=slots.priority, due_date=slots.due_date)
    note = TEXTS[language]["differed"] if facts["mismatches"] else ""
    changed = row.pop("changed")
    named = {"status": slots.status is not None, "priority": slots.priority is not None,
             "due_date": slots.due_date is not None}
    words = update_words(row, named, changed=changed, language=language)
    return done(words + note, task=row, mismatches=facts["mismatches"],
                undoable=changed)


def _update_visible(runtime: Runtime[RunContext], ctx: ExecCtx, slots: Slots, *, unasked: bool,
                    language: Language) -> dict[str, Any]:
    """Select the visible tasks once, then bind the update's ids to that selection (never re-typed)."""
    steps = runtime.context.tools
    if slots.status is None:
        return clarify(TEXTS[language]["which_status"])
    steps.read("select", "select_for_bulk", tools.select_for_bulk, scope=task_tools.rows_project_ids, ctx=ctx,
               exclude_status=slots.status)
    count = steps.count("select")
    if not count:
        if steps.meta("select").get("skipped_read_only"):
            return failed(TEXTS[language]["view_only"], "forbidden")
        return done(TEXTS[language]["none_to_change"], count=0)
    ids_binding = Binding(from_step="select", path="$.items[*].id")
    task_ids = steps.bind("update", {"task_ids": ids_binding})["task_ids"]
    # Every task the change would touch, by key and title: the card shows the first few, the rest on request.
    rows = [{"key": row["key"], "title": row["title"]} for row in steps.rows("select")]
    facts = {"count": count, "status": slots.status, "rows": rows, "selection": values_digest(sorted(task_ids))}
    # A resumed run always meets its interrupt again, even if the selection shrank below the threshold,
    # so an approval is checked against what the user actually saw. A change the user's words did not
    # ask for (the intent check) waits on the same card, whatever the count.
    if count > settings.BULK_CONFIRM_THRESHOLD or runtime.context.resuming or unasked:
        decision = ask_approval(action="bulk_update", facts=facts,
                                question=TEXTS[language]["confirm_many"].format(count=count))
        if decision.get("decision") != "approve":
            return done(TEXTS[language]["cancelled"].format(count=count), rejected=True)
        if decision.get("facts", {}).get("selection") != facts["selection"]:
            return failed(TEXTS[language]["visible_changed"], "target_changed")
    policy = {"count": fact(count, "database"), "selection": fact(facts["selection"], "database"),
              "now": fact(timezone.now().isoformat(), "server_clock")}
    result = steps.write("bulk_set_status", tools.bulk_set_status, facts=policy,
                         bound={"task_ids": ids_binding.describe()}, task_ids=task_ids, status=slots.status,
                         run_id=steps.run_id)
    marked = TEXTS[language]["marked"].format(count=result["count"], status=status_label(slots.status, language))
    return done(marked, count=result["count"],
                items=result["items"][:10], undoable=result["count"] > 0)


def _delete(runtime: Runtime[RunContext], slots: Slots, task_id: int, language: Language) -> dict[str, Any]:
    facts = _facts_with_mismatches(runtime, task_id, slots, subtasks=True)
    if not facts["can_write"]:
        return failed(TEXTS[language]["cannot_delete"].format(title=quoted(facts["title"])), "forbidden")
    # Nothing above this line changes data: the node runs again when the user decides, and its
    # reads (traced again) are the re-check against what the user approved.
    question = TEXTS[language]["confirm_delete"].format(key=facts["key"], title=quoted(facts["title"]))
    mismatch = mismatch_words(facts["mismatches"], language)
    decision = ask_approval(action="delete_task", facts=facts,
                            question=f"{mismatch} {question}" if mismatch else question)
    if decision.get("decision") != "approve":
        return done(TEXTS[language]["kept"].format(title=quoted(facts["title"])), rejected=True)
    if decision.get("facts") != facts:
        return failed(TEXTS[language]["changed_not_deleted"].format(title=quoted(facts["title"])), "target_changed")
    result = runtime.context.tools.write("delete_task", tools.delete_task, facts=_policy_facts(facts),
                                         task_id=task_id)
    words = TEXTS[language]
    extra = words["deleted_subtasks"].format(count=result["subtasks_deleted"]) if result["subtasks_deleted"] else ""
    return done(words["deleted"].format(title=quoted(result["title"]), extra=extra), deleted=result)


def crud(state: CrudInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Carry out a create, update or delete named by the route's slots."""
    ctx, route = state["exec_ctx"], state["route"]
    slots, language = route.slots, language_of(state.get("message"))
    try:
        if slots.operation == "create":
            # A create the user's words did not ask for first waits on a card (agent/routing/intent_check.py).
            stop = approve_unasked_create(runtime, route, _project_id(ctx), language)
            return stop if stop is not None else _create(runtime, ctx, slots, language)
        if slots.operation == "update" and slots.scope == "visible":
            return _update_visible(runtime, ctx, slots, unasked=route.write_unasked, language=language)
        if slots.operation not in ("update", "delete", *FIELD_OPERATIONS):
            return clarify(TEXTS[language]["which_operation"])
        if slots.operation != "update" and slots.scope == "visible":
            return clarify(TEXTS[language]["one_delete" if slots.operation == "delete" else "one_change"])
        try:
            task_id = target_task_id(runtime, ctx, slots, state.get("message", ""))
        except UntypedId:
            return clarify(TEXTS[language]["which_task_typed"])
        if task_id is None:
            return clarify(TEXTS[language]["which_task"])
        wrong = wrong_typed_key(runtime, state.get("message", ""), task_id)
        if wrong:
            return failed(TEXTS[language]["no_such_task"].format(key=wrong), "not_found")
        if slots.operation == "update":
            stop = approve_unasked_update(runtime, route, task_id, language)
            return stop if stop is not None else _update_one(runtime, slots, task_id, language)
        if slots.operation in FIELD_OPERATIONS:
            return change_fields(runtime, route, task_id, language)
        return _delete(runtime, slots, task_id, language)
    except ApplicationError as exc:
        if exc.code == "not_found":
            return failed(TEXTS[language]["not_found"], exc.code)
        return failed(TEXTS[language]["nothing_changed"].format(why=exc.message), exc.code)
