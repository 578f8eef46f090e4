"""Project tools: resolve a project the user named, only among the projects they are a member of."""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from agent.tools.facts import one_record
from pm_assistant.errors import NotFound
from projects.selectors import project_ids_writable_for_user, project_list_for_user


@one_record
def project_facts(*, user: User, project_id: int) -> dict[str, Any]:
    """Return what a card shows about one of the user's projects (NotFound for any other), from the database."""
    project = project_list_for_user(user=user, include_archived=True).filter(pk=project_id).first()
    if project is None:
        raise NotFound("This project was not found.", field="project")
    return {"project_id": project.pk, "project": project.name, "key": project.key}


class ProjectNameUnclear(NotFound):
    """No project, or several, go by the name; ``candidates`` holds the several (up to five)."""

    def __init__(self, message: str, *, candidates: list[str]) -> None:
        super().__init__(message, field="project_name")
        self.candidates = candidates


def project_by_name(*, user: User, name: str) -> dict[str, Any]:
    """Return the user's project with this name or key (case-insensitive), else NotFound.

    An exact name or key wins; otherwise a single project whose name contains the words. Two or
    more candidates are not guessed between: the user is asked which one.
    """
    wanted = " ".join(name.split()).casefold()
    projects = list(project_list_for_user(user=user, include_archived=True))
    exact = [p for p in projects if wanted in (p.name.casefold(), p.key.casefold())]
    found = exact or [p for p in projects if wanted in p.name.casefold()]
    if len(found) != 1:
        candidates = [p.name for p in found[:5]]
        names = ", ".join(f"“{name}”" for name in candidates)
        reason = f"Several of your projects match: {names}." if found else "None of your projects has that name."
        raise ProjectNameUnclear(reason, candidates=candidates)
    project = found[0]
    return {"id": project.pk, "name": project.name, "key": project.key}


def projects_to_create_in(*, user: User) -> dict[str, Any]:
    """Return the user's active projects they may add tasks to, by name: the choices of a project picker."""
    writable = project_ids_writable_for_user(user=user)
    items = [{"id": p.pk, "key": p.key, "name": p.name}
             for p in project_list_for_user(user=user).order_by("name") if p.pk in writable]
    return {"count": len(items), "items": items}


def project_for_examples(*, user: User) -> dict[str, Any]:
    """Return one of the user's active projects (the first by name) for help's typed examples; none if they
    have none, so an example never names a project the user cannot see."""
    project = project_list_for_user(user=user).order_by("name").values("id", "name").first()
    return {"count": 1 if project else 0, "items": [project] if project else []}
