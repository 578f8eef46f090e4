"""Writes to projects and memberships."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from pm_assistant.errors import InvalidInput
from pm_assistant.one_line import one_line

from .models import Membership, Project
from .selectors import membership_role


@transaction.atomic
def project_create(*, owner: User, name: str, key: str, description: str = "") -> Project:
    """Create a project; its owner becomes its first member."""
    name = one_line(name)
    if not name:
        raise InvalidInput("name: must not be blank.", field="name")
    if Project.objects.filter(key=key).exists():
        raise InvalidInput(f"key: {key!r} is already used by another project.", field="key")
    project = Project(owner=owner, name=name, key=key, description=description)
    project.full_clean()
    project.save()
    Membership.objects.create(user=owner, project=project, role=Membership.Role.OWNER)
    return project


@transaction.atomic
def membership_set(*, actor: User, project: Project, user: User, role: str) -> Membership:
    """Add a member or change a member's role; only the owner may do it."""
    if membership_role(user=actor, project=project) != Membership.Role.OWNER:
        raise InvalidInput("project: only the owner manages members.", field="project")
    if role not in Membership.Role.values:
        raise InvalidInput(f"role: {role!r} is not one of owner, member, viewer.", field="role")
    membership, _ = Membership.objects.update_or_create(user=user, project=project, defaults={"role": role})
    return membership
