"""Task breakdown as its own small graph: plan → review (the card) → execute → replan → review … → finish.

Each stage is a node, so LangGraph's checkpoint keeps what a stage did: when the user decides,
only the review node runs again (re-reading the database to compare with the card), and the
planner is not asked again, nor a step repeated.
"""
from __future__ import annotations

from typing import Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import ask_approval, clarify, done, failed
from agent.capabilities.common.task_keys import UntypedId, target_task_id
from agent.context.three_views import ExecCtx, ModelSummary
from agent.context.words import quote_user_text
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.state import Outcome
from agent.words.language import language_of
from pm_assistant.errors import InvalidInput
from pm_assistant.markdown import quoted

from . import tools as subtask_tools
from .answers import TEXTS, steps_word
from .card import card_facts, member_names
from .executor import plan_execute
from .material import material_read
from .plan import Plan
from .planner import MODEL, OFFLINE, ask_budget, plan_ask, plan_offline
from .report import dropped_entries, finish_outcome, parent_row
from .words import report_words


class DecomposeState(TypedDict, total=False):
    exec_ctx: ExecCtx
    model_summary: ModelSummary
    route: Route
    message: str
    parent_id: int
    planner: str
    # Model asks so far (plan and replans together), bounded by 1 + REPLAN_MAX.
    asked: int
    # The steps waiting for the user's approval, then those approved for this pass (plain JSON).
    plan: list[dict[str, Any]]
    approved: list[dict[str, Any]]
    revision: int
    # Outputs of the steps that are done, by step id, and every step's outcome so far.
    results: dict[str, Any]
    log: list[dict[str, Any]]
    # Whether a step of the latest pass did not run: the replanner's cue.
    pass_failed: bool
    # How the plan on the card was made, when the card must say it (a look into the description was dropped).
    note: str
    outcome: Outcome


def _brief(runtime: Runtime[RunContext], state: DecomposeState) -> dict[str, Any]:
    """The parent's facts, people and subtask count: bounded, so inline (the description and subtasks are read
    apart, material.py). Facts too large for a prompt end the breakdown with an error that says so."""
    runner = runtime.context.tools
    read = runner.read("parent", "parent_brief", subtask_tools.parent_brief, scope=lambda brief: [brief["project_id"]],
                       reuse=False, task_id=state["parent_id"])
    if read.externalized:
        raise InvalidInput("task_id: the task's facts and people are too many to plan from here.", field="task_id")
    return runner.data("parent")


def plan(state: DecomposeState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Find the task, read its facts and ask for a plan."""
    words = TEXTS[language_of(state.get("message"))]
    try:
        parent_id = target_task_id(runtime, state["exec_ctx"], state["route"].slots, state.get("message", ""))
    except UntypedId:
        return clarify(words["which_untyped"])
    if parent_id is None:
        return clarify(words["which"])
    state = {**state, "parent_id": parent_id}
    brief = _brief(runtime, state)
    if not brief["can_write"]:
        return failed(words["read_only"].format(title=quote_user_text(brief["title"])), "forbidden")
    material = material_read(runtime, brief)
    if runtime.context.llm.offline:
        proposal, planner = plan_offline(runtime, brief), OFFLINE
    else:
        proposal = plan_ask(runtime, summary=state["model_summary"], brief=brief, material=material,
                            message=state.get("message", ""), asked=0)
        planner = MODEL
    runtime.context.recorder.node("decompose.plan", planner=planner, asked=proposal.asked,
                                  steps=len(proposal.plan.steps) if proposal.plan else 0,
                                  refused=[p.kind for p in proposal.problems])
    if proposal.plan is None:
        why = "; ".join(p.message for p in proposal.problems) or proposal.error or "no plan came back"
        return {**failed(words["no_plan"].format(why=why), "plan_refused",
                         refused=[p.kind for p in proposal.problems]), "asked": proposal.asked}
    return {"parent_id": parent_id, "planner": planner, "asked": proposal.asked, "plan": proposal.plan.as_data(),
            "revision": 0, "results": {}, "log": [], "note": proposal.note}


def review(state: DecomposeState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Show the plan card and wait; after the decision, re-read the parent and compare before anything runs."""
    pending = Plan.from_data(state["plan"])
    brief = _brief(runtime, state)
    language = language_of(state.get("message"))
    words = TEXTS[language]
    facts = card_facts(brief, pending, planner=state["planner"], revision=state["revision"],
                       done=[entry["words"] for entry in state["log"] if entry["status"] == "done"], language=language)
    count = len(pending.steps)
    question = words["question"].format(count=count, steps=steps_word(count, words), title=quoted(brief["title"]))
    if state.get("note"):
        question = f"{question} {state['note']}"
    # Nothing above this line writes: the node runs again when the user decides.
    decision = ask_approval(action="decompose", facts=facts, question=question)
    if decision.get("decision") != "approve":
        return done(words["rejected"], rejected=True, **_so_far(state))
    if decision.get("facts") != facts:
        return failed(words["changed"].format(title=quoted(brief["title"])), "target_changed")
    approved = pending.without(set(decision.get("drop_steps") or []))
    dropped = sorted(set(pending.ids()) - set(approved.ids()))
    runtime.context.recorder.node("decompose.review", approved=approved.ids(), dropped=dropped)
    if not approved.steps:
        return done(words["unchecked"], **_so_far(state))
    # The unchecked steps stay in the log: the answer names them and a revised plan may not reuse their ids.
    return {"approved": approved.as_data(), "log": [*state["log"], *dropped_entries(facts["steps"], dropped)]}


def _so_far(state: DecomposeState) -> dict[str, Any]:
    return {"steps": state.get("log", [])}


def execute(state: DecomposeState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Run the approved steps (no model)."""
    brief = _brief(runtime, state)
    results, log = plan_execute(runtime, state["exec_ctx"], Plan.from_data(state["approved"]),
                                parent=parent_row(brief), results=state["results"], names=member_names(brief),
                                language=language_of(state.get("message")))
    return {"results": results, "log": [*state["log"], *log], "approved": [],
            "pass_failed": any(entry["status"] != "done" for entry in log)}


def replan(state: DecomposeState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Ask once for a revised remainder, told what was done and what failed."""
    brief = _brief(runtime, state)
    proposal = plan_ask(runtime, summary=state["model_summary"], brief=brief, material=material_read(runtime, brief),
                        message=state.get("message", ""), asked=state["asked"], report=report_words(state["log"]),
                        taken=[entry["step"] for entry in state["log"]], done=list(state["results"]))
    runtime.context.recorder.node("decompose.replan", asked=proposal.asked,
                                  steps=len(proposal.plan.steps) if proposal.plan else 0,
                                  refused=[p.kind for p in proposal.problems])
    steps = proposal.plan.as_data() if proposal.plan else []
    return {"asked": proposal.asked, "plan": steps, "revision": state["revision"] + (1 if steps else 0),
            "note": proposal.note}


def finish(state: DecomposeState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Say what was done, what was not, and why."""
    if state.get("outcome"):
        return {}
    return {"outcome": finish_outcome(state["log"], planner=state["planner"], asked=state["asked"],
                                      language=language_of(state.get("message")))}


def _after_plan(state: DecomposeState) -> Literal["review", "finish"]:
    return "finish" if state.get("outcome") else "review"


def _after_review(state: DecomposeState) -> Literal["execute", "finish"]:
    return "finish" if state.get("outcome") else "execute"


def _after_execute(state: DecomposeState) -> Literal["replan", "finish"]:
    may_ask = state["planner"] == MODEL and state["asked"] < ask_budget()
    return "replan" if state["pass_failed"] and may_ask else "finish"


def _after_replan(state: DecomposeState) -> Literal["review", "finish"]:
    return "review" if state.get("plan") else "finish"


def build_flow() -> CompiledStateGraph[Any, Any, Any, Any]:
    """Build the breakdown's graph; it runs inside the decompose node and shares the run's checkpointer."""
    builder = StateGraph(DecomposeState, context_schema=RunContext)
    for name, node in (("plan", plan), ("review", review), ("execute", execute), ("replan", replan),
                       ("finish", finish)):
        builder.add_node(name, node)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", _after_plan, ["review", "finish"])
    builder.add_conditional_edges("review", _after_review, ["execute", "finish"])
    builder.add_conditional_edges("execute", _after_execute, ["replan", "finish"])
    builder.add_conditional_edges("replan", _after_replan, ["review", "finish"])
    builder.add_edge("finish", END)
    return builder.compile()


FLOW = build_flow()
