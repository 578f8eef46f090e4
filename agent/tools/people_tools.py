"""People tools: find a person the user named, only among the members of the user's own projects.

A query that lists "carol's" tasks and an assign "to carol" both name a person as written; the
server finds them here, from the memberships of the user's projects (never among all users), so a
name the user cannot see is the same as one that does not exist. Two or more matches are not
guessed between: the caller asks which one.
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from projects.models import Membership
from projects.selectors import project_list_for_user

# Words that name the user themself ("assign it to me", "分配给我").
ME = frozenset({"me", "myself", "我", "我自己"})


def members_named(*, user: User, name: str, project_id: int | None = None) -> dict[str, Any]:
    """Return the members of the user's projects (or of one of them) the name fits: username, first name or
    full name, any case. Each item names the projects (of those) the person is a member of."""
    wanted = " ".join(name.split()).casefold()
    projects = project_list_for_user(user=user, include_archived=True)
    if project_id is not None:
        projects = projects.filter(pk=project_id)
    rows = Membership.objects.filter(project__in=projects).select_related("user")
    if wanted in ME:
        rows = rows.filter(user=user)
    else:
        first, _, last = wanted.partition(" ")
        by_name = Q(user__username__iexact=wanted) | Q(user__first_name__iexact=wanted)
        if last:
            by_name |= Q(user__first_name__iexact=first, user__last_name__iexact=last)
        rows = rows.filter(by_name)
    people: dict[int, dict[str, Any]] = {}
    for row in rows.order_by("user__username", "project_id"):
        person = people.setdefault(row.user_id, {"id": row.user_id, "username": row.user.get_username(),
                                                 "name": row.user.get_full_name() or row.user.get_username(),
                                                 "project_ids": []})
        person["project_ids"].append(row.project_id)
    items = list(people.values())
    return {"count": len(items), "items": items, "name": name}


def people_project_ids(result: dict[str, Any]) -> list[int]:
    """The projects a members_named result touches (the run's read scope)."""
    return sorted({pid for item in result["items"] for pid in item["project_ids"]})
