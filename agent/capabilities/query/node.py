"""query: find tasks with the page's full filters, then explain the result in words."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, TypedDict
from urllib.parse import urlencode

from django.urls import reverse
from langgraph.runtime import Runtime

from agent.artifacts.classify import Classified
from agent.capabilities.common.fidelity import Allowed, kept_to
from agent.capabilities.common.looking import Inspected, Source, inspect_loop
from agent.capabilities.common.outcome import assemble_checked, clarify, done, failed
from agent.capabilities.common.scope import ScopeUnclear, request_project_id
from agent.capabilities.common.task_brief import task_brief
from agent.context.three_views import ExecCtx, ModelSummary
from agent.context.words import quote_user_text
from agent.llm.base import LLMError
from agent.models import Artifact
from agent.prompting.messages import PromptPart, PromptRefused
from agent.reading.reader import read
from agent.routing.decision import Route, Slots
from agent.runtime import RunContext
from agent.tools import task_tools as tools
from agent.words.language import language_of
from pm_assistant.errors import ApplicationError
from pm_assistant.vocabulary import OPEN_STATUSES
from tasks.filters import TaskFilters

from . import tools as query_tools
from .answers import filter_words, template_reply, unread_filters, unusable_words
from .person import assignee_filter
from .prompts import EXPLAIN_INSTRUCTIONS

SHOWN = 10


class QueryInput(TypedDict):
    message: str
    exec_ctx: ExecCtx
    model_summary: ModelSummary
    route: Route


def open_by_default(slots: Slots, assignee: int | str | None) -> bool:
    """"my P0 tasks" are my open P0 tasks: a priority of mine with no status said ("my done P0 tasks")."""
    return bool(slots.priority_filter) and assignee == "me" and not slots.status_filter


def query_filters(ctx: ExecCtx, slots: Slots, *, project_id: int | None = None,
                  assignee: int | str | None = None) -> TaskFilters:
    """The page's filters, narrowed by what the request asked for (and to the project it names).

    ``assignee`` is the person the request named, found by the server (a user id, "me" or "none").
    """
    if slots.preset in ("my_overdue", "overdue"):
        # "My overdue" spans all the user's projects unless the request named one or said "here";
        # "overdue" is everyone's, or the named person's.
        named = slots.project_name is not None or slots.scope == "project"
        overdue = replace(query_tools.my_overdue_filters(), project_id=project_id if named else None)
        if slots.preset == "overdue":
            overdue = replace(overdue, assignee=assignee)
        # What else was asked narrows it: a priority, open statuses, a due range ending sooner.
        if slots.priority_filter:
            overdue = replace(overdue, priority=tuple(slots.priority_filter))
        statuses = tuple(s for s in OPEN_STATUSES if s in (slots.status_filter or ()))
        if statuses:
            overdue = replace(overdue, status=statuses)
        if slots.due_after is not None:
            overdue = replace(overdue, due_after=slots.due_after)
        if slots.due_before is not None and overdue.due_before is not None and slots.due_before < overdue.due_before:
            overdue = replace(overdue, due_before=slots.due_before)
        return overdue
    overrides: dict[str, Any] = {"project_id": project_id} if project_id is not None else {}
    if slots.status_filter:
        overrides["status"] = slots.status_filter
    elif open_by_default(slots, assignee):
        overrides["status"] = list(OPEN_STATUSES)
    if slots.priority_filter:
        overrides["priority"] = slots.priority_filter
    if assignee is not None:
        overrides["assignee"] = assignee
    if slots.due_after is not None or slots.due_before is not None:
        overrides.update(due_after=slots.due_after, due_before=slots.due_before)
    return tools.filters_from_ctx(ctx, **overrides)


def task_list_url(filters: TaskFilters) -> str:
    """The task list page showing the same tasks: each filter as the page's own query parameter."""
    params = {"project": filters.project_id, "status": ",".join(filters.status), "assignee": filters.assignee,
              "priority": ",".join(filters.priority), "due_before": filters.due_before,
              "due_after": filters.due_after, "labels": ",".join(filters.labels), "search": filters.search}
    query = urlencode({name: str(value) for name, value in params.items() if value not in (None, "")})
    return f"{reverse('task-list')}?{query}" if query else reverse("task-list")


def row_words(row: dict[str, Any]) -> str:
    """One task as words: quoted title, status, priority, due date, assignee (no ids)."""
    due = f", due {row['due_date']}" if row["due_date"] else ""
    who = f", assigned to {row['assignee']}" if row["assignee"] else ", unassigned"
    return f"- {quote_user_text(row['title'], 80)}: {row['status'].replace('_', ' ')}, {row['priority']}{due}{who}"


def result_part(classified: Classified, rows: list[dict[str, Any]], count: int) -> PromptPart:
    """The query result in exactly one form: all rows as words when inline, else the artifact's summary."""
    if classified.externalized:
        return classified.as_prompt_part(heading="Query result (a summary; the rows are stored apart):")
    lines = "\n".join(row_words(r) for r in rows)
    return PromptPart(ref=classified.ref, form="full", role="user", text=f"{count} tasks found:\n{lines}",
                      heading="Query result:")


def model_reads(runtime: Runtime[RunContext], route: Route) -> bool:
    """Whether a model reads the result to explain it; otherwise the template answers from the first page.

    A quick action takes the fast path end to end (no LLM call, the template answer: docs/DESIGN.md#routing),
    and so does a typed request once routed when no model is configured (the offline provider).
    """
    return not (runtime.context.llm.offline or route.via == "fast_path")


def explain(runtime: Runtime[RunContext], state: QueryInput, part: PromptPart, fallback: str, *,
            artifact_ref: str | None = None) -> tuple[str, Inspected | None]:
    """Ask the generation model for a short explanation from the page summary and the result.

    When the result is stored as an artifact the model may inspect it first (outline, search, head,
    tail, context) for up to the capability's declared rounds; each excerpt takes the place of the
    ref's previous form. A dropped inspection ends with the template answer, which says it used the summary.
    """
    llm = runtime.context.llm
    summary = state["model_summary"]
    if not model_reads(runtime, state["route"]):
        return fallback, None
    language = language_of(state.get("message"))

    def parts_with(result: list[PromptPart], notes: list[PromptPart]) -> list[PromptPart]:
        parts = [
            PromptPart(ref="prompt:explain", form="instruction", role="system", text=EXPLAIN_INSTRUCTIONS),
            PromptPart(ref="model_summary", form="summary", role="system", text=summary.text,
                       heading="The page:"),
            *result, *notes,
        ]
        if state.get("message"):
            parts.append(PromptPart(ref="user_message", form="full", role="user", text=state["message"],
                                    heading="The user asked:"))
        return parts

    try:
        if artifact_ref is None:
            shown = parts_with([part], [])
            # Prose for the user streams to the sidebar as a preview.
            reply = llm.complete(purpose="explain", role="generation", prompt=assemble_checked(runtime, shown),
                                 prose=True)
            inspected = None
        else:
            inspected = inspect_loop(runtime, capability="query", sources=[Source("result", artifact_ref, part)],
                                     parts_with=parts_with, assemble=lambda parts: assemble_checked(runtime, parts),
                                     purpose="explain")
            if inspected.reply is None:
                return f"{fallback} {inspected.note(language)}", inspected
            reply, shown = inspected.reply, inspected.shown
    except LLMError:
        return fallback, None
    # Facts come from the server: a number or date the model was not shown is not stated to the user.
    # The streamed preview is replaced by the answer kept here, the template's when the check fails.
    text = kept_to(reply.text.strip(), Allowed.stated_in([fallback, *(p.text for p in shown)]),
                   recorder=runtime.context.recorder, what="explanation", fallback=fallback)
    note = inspected.note(language) if inspected else ""
    return (f"{text} {note}" if note else text), inspected


def query(state: QueryInput, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Run query_tasks with ExecCtx filters and explain what was found."""
    ctx, route = state["exec_ctx"], state["route"]
    if route.slots.scope == "selected":
        return task_brief(runtime, ctx, route.slots, state.get("message") or "")
    steps = runtime.context.tools
    # Answered from the template (a quick action, or a typed request with no model to read the rows),
    # the first page and the count are all it needs: the task list's first keyset page and the
    # counters' count, the same work whichever way it was asked, and nothing stored for the rest.
    # A model that explains gets the rest stored apart, to inspect on demand.
    limit = tools.QUERY_MAX_ROWS if model_reads(runtime, route) else SHOWN
    try:
        project_id = request_project_id(runtime, ctx, route.slots, language_of(state.get("message")))
    except ScopeUnclear as exc:
        return clarify(str(exc))
    person = assignee_filter(runtime, route.slots, language_of(state.get("message")))
    if isinstance(person, dict):
        return person
    filters = query_filters(ctx, route.slots, project_id=project_id, assignee=person.value)
    try:
        classified = steps.read("s1", "query_tasks", tools.query_tasks, scope=tools.rows_project_ids,
                                filters=filters, limit=limit)
    except ApplicationError as exc:
        return failed(f"The query failed: {exc.message}", exc.code)
    rows = steps.shown["s1"]
    count = classified.data["count"] if not classified.externalized else _artifact_count(classified)
    language = language_of(state.get("message"))
    stated = route.slots
    if stated.preset in ("my_overdue", "overdue"):  # an overdue task is open: a done status asked is not used
        stated = stated.model_copy(update={"status_filter": [s for s in stated.status_filter if s in OPEN_STATUSES]})
    fallback = template_reply({"count": count, "items": rows}, route.slots, language,
                              said=filter_words(stated, person.name, language,
                                                open_only=open_by_default(route.slots, person.value)))
    # A filter the request held but the query cannot use (or the router dropped) is named, never dropped
    # (agent/reading/reads.py), above the template's answer or the model's alike.
    unusable = unread_filters(read(state.get("message") or ""), route.slots) if route.via == "llm_router" else ()
    try:
        reply, inspected = explain(runtime, state, result_part(classified, rows, count), fallback,
                                   artifact_ref=classified.ref if classified.externalized else None)
    except PromptRefused as exc:
        return failed(str(exc), exc.code)
    if unusable:
        reply = f"{unusable_words(unusable, language)}\n{reply}"
    artifact = classified.artifact.as_dict() if classified.artifact else None
    extra = {"inspection": inspected.as_data()} if inspected else {}
    return done(reply, count=count, items=rows, artifact=artifact, list_url=task_list_url(filters), **extra)


def _artifact_count(classified: Classified) -> int:
    """The total the tool reported (kept in the artifact's meta), else the stored item count."""
    assert classified.artifact is not None
    meta = Artifact.objects.filter(ref=classified.ref).values_list("meta", flat=True).first() or {}
    count = meta.get("count")
    return count if isinstance(count, int) else classified.artifact.item_count
