"""Assign, unassign and rename one task: its assignee or its title, the way crud updates a task.

The person is found by the server among the members of the user's projects
(agent/tools/people_tools.py): a name nobody there has is asked about, naming the word; a person
who is not a member of the task's project is refused, naming the field; two people who fit the name
are not guessed between. The write then takes the update's path: at once when the user's words
asked for it whole, else on the card that states it (write_approval.py); undoable like an update.
"""
from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.capabilities.common.outcome import clarify, done, failed
from agent.routing.decision import Route
from agent.runtime import RunContext
from agent.tools import task_tools
from agent.tools.people_tools import members_named, people_project_ids
from agent.words.language import Language
from pm_assistant.markdown import literal, quoted

from . import tools
from .answers import TEXTS, update_words
from .write_approval import approve_unasked_update

# The operations this module carries out (agent.routing.decision.Slots.operation).
FIELD_OPERATIONS = ("assign", "unassign", "rename")


def _person(runtime: Runtime[RunContext], name: str, facts: dict[str, Any],
            language: Language) -> dict[str, Any]:
    """The one member of the task's project the name fits (and where its id stands in the lookup, "at"), or the
    outcome that says why there is none."""
    steps, words = runtime.context.tools, TEXTS[language]
    steps.read("people", "members_named", members_named, scope=people_project_ids, name=name)
    found = steps.data("people")["items"]
    if not found:
        return clarify(words["who_unknown"].format(name=literal(name)), unknown=name)
    here = [p for p in found if facts["project_id"] in p["project_ids"]]
    if not here:
        return failed(words["not_member"].format(name=literal(name), project=facts["project"]), "invalid",
                      field="assignee")
    if len(here) > 1:
        names = words["join"].join(f"{p['username']} ({p['name']})" for p in here)
        return clarify(words["who_several"].format(name=literal(name), names=names))
    return {"person": here[0], "at": f"$.items[{found.index(here[0])}].id"}


def change_fields(runtime: Runtime[RunContext], route: Route, task_id: int, language: Language) -> dict[str, Any]:
    """Carry out an assign, unassign or rename of one task the user can see."""
    slots, steps, words = route.slots, runtime.context.tools, TEXTS[language]
    if slots.operation == "assign" and not slots.assignee:
        return clarify(words["who_to"])
    if slots.operation == "rename" and not (slots.title or "").strip():
        return clarify(words["new_title"])
    steps.read("facts", "task_facts", task_tools.task_facts, scope=lambda facts: [facts["project_id"]],
               task_id=task_id, subtasks=False)
    facts = steps.data("facts")
    person: dict[str, Any] | None = None
    if slots.operation in ("assign", "unassign") and slots.assignee:
        found = _person(runtime, str(slots.assignee), facts, language)
        if "person" not in found:
            return found
        if slots.operation == "assign":
            person = found["person"]
            # Its id reaches the write bound to the server's lookup, a fact from the server (audit point 1).
            runtime.context.tools.bind_lookup("people", "assignee_id", found["at"])
        elif found["person"]["username"] != facts["assignee"]:  # "take carol off WEB-5": WEB-5 must be carol's
            return done(words["not_theirs"].format(name=found["person"]["username"], task=facts["key"],
                                                   assignee=facts["assignee"] or words["nobody"]))
    if slots.operation == "rename":
        change: dict[str, Any] = {"title": f"“{slots.title}”"}
    else:
        # From whom to whom: the card states the task's assignee now, as the database has it.
        to = person["username"] if person else words["nobody"]
        change = {"assignee": f"{facts['assignee']} → {to}" if facts["assignee"] else to}
    stop = approve_unasked_update(runtime, route, task_id, language, changes=change)
    if stop is not None:
        return stop
    if slots.operation == "rename":
        row = steps.write("rename_task", tools.rename_task, task_id=task_id, run_id=steps.run_id,
                          title=str(slots.title))
    else:
        row = steps.write("assign_task", tools.assign_task, task_id=task_id, run_id=steps.run_id,
                          assignee_id=person["id"] if person else None)
    changed = row.pop("changed")
    named = {"status": False, "priority": False, "due_date": False, "assignee": slots.operation != "rename",
             "title": slots.operation == "rename"}
    before = quoted(facts["title"]) if slots.operation == "rename" else ""
    return done(update_words(row, named, changed=changed, language=language, before=before), task=row,
                undoable=changed)
