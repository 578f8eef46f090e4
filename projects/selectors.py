"""Read access to projects, always scoped to the projects the user is a member of."""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.apps import apps
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q, QuerySet, Sum

from pm_assistant.errors import Forbidden, NotFound

from .models import Membership, Project

AnyUser = User | AnonymousUser
# Owners and members change tasks; viewers read only.
_WRITER_ROLES = (Membership.Role.OWNER, Membership.Role.MEMBER)


def project_list_for_user(*, user: AnyUser, include_archived: bool = False) -> QuerySet[Project]:
    """Return the projects the user is a member of."""
    if not user.is_authenticated:
        return Project.objects.none()
    qs = Project.objects.filter(memberships__user=user)
    if not include_archived:
        qs = qs.filter(archived=False)
    return qs.select_related("owner").order_by("name")


def project_get_for_user(*, user: AnyUser, project_id: int) -> Project:
    """Return one project, or NotFound when it does not exist or the user is not a member."""
    project = project_list_for_user(user=user, include_archived=True).filter(pk=project_id).order_by().first()
    if project is None:
        raise NotFound(f"Project {project_id} was not found.", field="project")
    return project


def membership_role(*, user: AnyUser, project: Project) -> str | None:
    """Return the user's role in the project, or None."""
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(user=user, project=project).values_list("role", flat=True).first()


def project_require_writer(*, user: AnyUser, project: Project) -> None:
    """Raise unless the user may change the project's tasks (viewers read only)."""
    role = membership_role(user=user, project=project)
    if role is None:
        raise NotFound(f"Project {project.pk} was not found.", field="project")
    if role == Membership.Role.VIEWER:
        raise Forbidden("Viewers cannot change tasks in this project.", field="project")


def membership_roles(*, user: AnyUser, project_ids: Collection[int]) -> dict[int, str]:
    """Return the user's role in each of these projects the user is a member of: one query for all."""
    if not user.is_authenticated or not project_ids:
        return {}
    return dict(Membership.objects.filter(user=user, project_id__in=project_ids).values_list("project_id", "role"))


def role_can_write(role: str | None) -> bool:
    """Tell whether a member with this role may change the project's tasks (owners and members)."""
    return role in _WRITER_ROLES


def project_require_writer_of(*, user: AnyUser, project_ids: set[int]) -> None:
    """Raise unless the user may change tasks in every one of these projects: one query for all."""
    roles = membership_roles(user=user, project_ids=project_ids)
    for project_id in sorted(project_ids):
        if project_id not in roles:
            raise NotFound(f"Project {project_id} was not found.", field="project")
        if roles[project_id] == Membership.Role.VIEWER:
            raise Forbidden("Viewers cannot change tasks in this project.", field="project")


def project_progress_for_user(*, user: AnyUser, project_ids: list[int] | None = None,
                              limit: int | None = None) -> list[dict[str, object]]:
    """Return task counts and completion percentage of the user's projects (these ids, the first ``limit``).

    The projects are chosen first and only their tasks are counted (one query each), so a page that
    shows a few projects does not aggregate every task of every project.
    """
    projects = project_list_for_user(user=user)
    if project_ids is not None:
        projects = projects.filter(pk__in=project_ids)
    return project_progress(list(projects[:limit] if limit is not None else projects))


def project_progress(shown: list[Project]) -> list[dict[str, object]]:
    """Return task counts and completion percentage of these projects (already checked to be the user's)."""
    # Added up from the counters the database keeps with the tasks (tasks.models.TaskCount): a few
    # rows a project, however many tasks it has. (projects does not import the tasks app.)
    counters = apps.get_model("tasks", "TaskCount").objects.filter(project_id__in=[p.pk for p in shown])
    counts: dict[int, dict[str, Any]] = {
        row["project_id"]: dict(row) for row in counters.order_by().values("project_id").annotate(
            total=Sum("tasks", filter=Q(top_level=True)),
            done=Sum("tasks", filter=Q(top_level=True, status="done")),
            blocked=Sum("tasks", filter=Q(status="blocked")),
        )
    } if shown else {}
    rows = []
    for project in shown:
        row = counts.get(project.pk, {})
        total, done = row.get("total") or 0, row.get("done") or 0
        rows.append({"project": project, "total": total, "done": done, "blocked": row.get("blocked") or 0,
                     "percent": round(100 * done / total) if total else 0})
    return rows


def project_member_get(*, project: Project, user_id: int) -> User | None:
    """Return the user with this id when they are a member of the project, else None."""
    membership = Membership.objects.filter(project=project, user_id=user_id).select_related("user").first()
    return membership.user if membership else None


def project_members(*, project: Project) -> QuerySet[Membership]:
    """Return the memberships of a project with their users."""
    return project.memberships.select_related("user").order_by("user__username")


def project_writable_by(*, user: User, project_id: OuterRef) -> Exists:
    """Whether the user may change tasks in the referenced project, as an expression for one query."""
    return Exists(Membership.objects.filter(project_id=project_id, user_id=user.pk, role__in=_WRITER_ROLES))


def project_writers(*, project_id: int) -> QuerySet[Membership]:
    """Return the memberships of a project whose people may change its tasks (owners and members)."""
    return Membership.objects.filter(project_id=project_id, role__in=_WRITER_ROLES)


def project_ids_writable_for_user(*, user: AnyUser) -> set[int]:
    """Return the ids of the projects where the user may change tasks (owner or member)."""
    if not user.is_authenticated:
        return set()
    return set(Membership.objects.filter(user=user, role__in=_WRITER_ROLES).values_list("project_id", flat=True))


def user_list_sharing_a_project_with(*, user: AnyUser) -> QuerySet[User]:
    """Return the users who are members of at least one of the user's projects (the user included)."""
    if not user.is_authenticated:
        return User.objects.none()
    projects = Membership.objects.filter(user=user).values("project_id")
    return User.objects.filter(pk__in=Membership.objects.filter(project_id__in=projects).values("user_id"))
